// What the documents say about each operation before it is called: the capabilities that
// pass its check (x-capability), whether it needs a recent step-up (x-step-up) and an
// Idempotency-Key (x-idempotency). Read from console/api/operations.ts, generated from the
// same documents as the client, so the console and the API cannot disagree.
import { OPERATIONS } from "../../api/operations.ts";

export type Family = keyof typeof OPERATIONS;
export type OperationKey<F extends Family> = keyof (typeof OPERATIONS)[F] & string;

export interface OperationFacts {
  operationId: string;
  capability: readonly string[];
  stepUp: boolean;
  idempotency: "none" | "optional" | "required";
  auth: string;
}

/** An operation named the way the documents name it: family and "METHOD /path". */
export type OpRef = { [F in Family]: { family: F; op: OperationKey<F> } }[Family];

export function op<F extends Family>(family: F, key: OperationKey<F>): OpRef {
  return { family, op: key } as OpRef;
}

export function operationFacts(family: Family, key: string): OperationFacts | undefined {
  return (OPERATIONS[family] as Record<string, OperationFacts>)[key];
}

export function factsOf(ref: OpRef): OperationFacts {
  const f = operationFacts(ref.family, ref.op);
  if (!f) throw new Error(`operation ${ref.family} ${ref.op} is not in the documents`);
  return f;
}

/** Whether a caller with these capabilities passes the operation's capability check. */
export function allows(capabilities: ReadonlySet<string>, ref: OpRef): boolean {
  const needed = factsOf(ref).capability;
  return needed.length === 0 || needed.some((c) => capabilities.has(c));
}
