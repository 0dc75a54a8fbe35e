// useResource: data a page reads, kept current. It loads when its key changes, and reloads
// (keeping what it shows until the new answer arrives) when one of its topics is published
// (events.ts), when the window regains focus, and every `pollMs` while the page is visible —
// the stand-in for the server-sent event streams. Reads go through the browser's HTTP cache:
// the API answers with strong ETags and `private, no-cache`, so an unchanged reload is a 304.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { subscribe, type Topic } from "./events.ts";
import { ProblemError } from "../api/problem.ts";

export interface Resource<T> {
  data: T | undefined;
  error: ProblemError | Error | undefined;
  loading: boolean;
  /** When the data shown was loaded. */
  loadedAt: Date | undefined;
  reload: () => void;
}

export interface ResourceOptions {
  /** Reload when one of these is published. */
  topics?: readonly Topic[];
  /** Poll interval while visible (default 30 s; 0: never). */
  pollMs?: number;
}

export function useResource<T>(load: () => Promise<T>, key: readonly unknown[], opts: ResourceOptions = {}): Resource<T> {
  const [state, setState] = useState<Omit<Resource<T>, "reload">>({ data: undefined, error: undefined, loading: true, loadedAt: undefined });
  const loadRef = useRef(load);
  loadRef.current = load;
  const seq = useRef(0);

  const reload = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    loadRef.current().then(
      (data) => mine === seq.current && setState({ data, error: undefined, loading: false, loadedAt: new Date() }),
      (error: unknown) =>
        mine === seq.current && setState((s) => ({ ...s, error: error instanceof Error ? error : new Error(String(error)), loading: false })),
    );
  }, []);

  // A new key is new data: forget the old answer so a page never shows one list under another's filters.
  useEffect(() => {
    setState({ data: undefined, error: undefined, loading: true, loadedAt: undefined });
    reload();
  }, key);

  const topics = (opts.topics ?? []).join(",");
  useEffect(() => (topics ? subscribe(topics.split(","), () => reload()) : undefined), [topics]);

  const pollMs = opts.pollMs ?? 30_000;
  useEffect(() => {
    const onFocus = () => reload();
    window.addEventListener("focus", onFocus);
    const timer = pollMs > 0 ? setInterval(() => document.visibilityState === "visible" && reload(), pollMs) : undefined;
    return () => {
      window.removeEventListener("focus", onFocus);
      clearInterval(timer);
    };
  }, [pollMs]);

  return { ...state, reload };
}
