import { defineRoute } from "../../../platform/http/define-route.ts";
import { CanonicalSnapshot } from "../snapshot.schemas.ts";
import { snapshotStream } from "../snapshot.service.ts";

export const getInteroperabilitySnapshot = defineRoute({
  family: "assets",
  method: "get",
  path: "/interoperability/snapshot",
  operationId: "getInteroperabilitySnapshot",
  summary: "Canonical snapshot of the partner's asset data",
  description:
    "Schema version 1.0 (the `CanonicalSnapshot` component, JSON Schema 2020-12): locations, assets, identifiers, containment, custody, economic entries, " +
    "evidence (metadata and plaintext SHA-256 of every file, restricted ones included; never bytes, storage keys or key material; the service holds no sensor " +
    "readings) and the movement and record chronology with corrections, plus provenance (who asked, when, which service release). The body is streamed section by section " +
    "in pages, so a large partner's snapshot is never held in memory; records are read in id or (recordedAt, id) order and the chronology stops at " +
    "`provenance.generatedAt`. Step-up required. For a snapshot to fetch later, POST /interoperability/jobs with format `snapshot`.",
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  file: import.meta.path,
  responses: { 200: { description: "The snapshot (streamed JSON)", schema: CanonicalSnapshot } },
  handler: async (ctx) => {
    // The stream outlives the handler: it pins the partner's database itself until done.
    const tenant = ctx.deps.tenancy.acquireOpen(ctx.partnerId) ?? (await ctx.deps.tenancy.acquire(ctx.partnerId));
    const body = snapshotStream({ ...ctx, tenant }, { generatedBy: ctx.actorId, jobId: null }, () => ctx.deps.tenancy.release(tenant));
    return { status: 200, body: new Response(body, { status: 200, headers: { "content-type": "application/json" } }) };
  },
});
