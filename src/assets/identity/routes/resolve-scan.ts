import { defineRoute } from "../../../platform/http/define-route.ts";
import { ResolveScan, ScanResolution } from "../identity.schemas.ts";
import { resolveScan as resolve } from "../identity.service.ts";

export const resolveScan = defineRoute({
  family: "assets",
  method: "post",
  path: "/scan/resolve",
  operationId: "resolveScan",
  summary: "Resolve a raw scan to its item, identifier state and current custody",
  description:
    "Read-only (no Idempotency-Key). Accepts a GS1 Digital Link URI, an EPC URN or 96-bit hex, an element string such as " +
    "(8004)…, (01)…(21)… (bracketed or with FNC1), a plain asset tag or serial, or a URL. Readings are tried most specific first " +
    "and the first live match wins; any spelling of a GS1 key finds the identifier issued under another. Suspended identifiers " +
    "resolve (the state is in the answer); retired ones do not (404). A 404 lists the `candidates` that were looked up.",
  tags: ["Identity"],
  auth: "session",
  capability: "ams_view",
  idempotency: "none",
  body: ResolveScan,
  scannerFields: ["/body/raw"],
  file: import.meta.path,
  problems: [404],
  responses: { 200: { description: "What the scan names", schema: ScanResolution } },
  handler: async (ctx, { body }) => ({ status: 200, body: await resolve(ctx, body.raw) }),
});
