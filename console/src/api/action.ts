// A user action that changes something (a form submit, a button): one Idempotency-Key per
// action, generated with crypto.randomUUID() when the action starts and kept for its retries
// (a timeout, a lost connection, a 503, or a corrected resubmit after a 4xx — the API stores
// only 2xx outcomes, so a key stays usable until one succeeds). After a success the next
// submit is a new action with a new key. The answer's problem+json becomes field errors.
import { useCallback, useRef, useState } from "preact/hooks";
import { fieldErrorsOf, isProblem, otherErrorsOf, describeProblem, type FieldErrors, type Problem } from "./problem.ts";

/** The headers of one action's calls (a type alias, so it fits openapi-fetch's header record). */
export type ActionHeaders = { "Idempotency-Key": string };

type Answer<T> = { data?: T; error?: unknown; response: Response };
export type ActionOutcome<T> = { ok: true; data: T } | { ok: false; problem: Problem | undefined; message: string };

export interface ActionState<T> {
  /** Runs the call with this action's key; on failure the state holds the problem. */
  run: (call: (headers: ActionHeaders) => Promise<Answer<T>>) => Promise<ActionOutcome<T>>;
  pending: boolean;
  problem: Problem | undefined;
  /** Body field errors by pointer (`/holder/id`). */
  fieldErrors: FieldErrors;
  /** Messages for the form's summary (the problem's detail, errors outside the body). */
  summary: string[];
  /** The key the next run sends (tests and the retry note read it). */
  key: string;
  /** Forget the outcome (a dialog closed); a new key only after a success. */
  reset: () => void;
}

export function useAction<T>(): ActionState<T> {
  const key = useRef(crypto.randomUUID());
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [summary, setSummary] = useState<string[]>([]);

  const run = useCallback(async (call: (headers: ActionHeaders) => Promise<Answer<T>>): Promise<ActionOutcome<T>> => {
    setPending(true);
    setProblem(undefined);
    setSummary([]);
    try {
      const r = await call({ "Idempotency-Key": key.current });
      if (r.response.ok && r.error === undefined) {
        key.current = crypto.randomUUID();
        return { ok: true, data: r.data as T };
      }
      const p = isProblem(r.error) ? r.error : undefined;
      const message = describeProblem(p, r.response.status);
      setProblem(p);
      setSummary([message, ...otherErrorsOf(p)]);
      return { ok: false, problem: p, message };
    } catch {
      // The request may or may not have arrived: the same key makes a retry safe.
      const message = "The service could not be reached. Try again: the retry is recognised and applied at most once.";
      setSummary([message]);
      return { ok: false, problem: undefined, message };
    } finally {
      setPending(false);
    }
  }, []);

  const reset = useCallback(() => {
    setProblem(undefined);
    setSummary([]);
  }, []);

  return { run, pending, problem, fieldErrors: fieldErrorsOf(problem), summary, key: key.current, reset };
}
