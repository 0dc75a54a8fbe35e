// Background interoperability exports (POST /interoperability/jobs): the request,
// its progress and where its encrypted result lives. The content key and envelope
// header never leave the service.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import type { EnvelopeHeader } from "../../platform/crypto/envelope.ts";
import type { ExportEpcisQuery } from "./epcis.schemas.ts";

export const interopJobs = sqliteTable(
  "interop_jobs",
  {
    id: text("id").primaryKey(),
    format: text("format", { enum: ["epcis", "snapshot"] }).notNull(),
    state: text("state", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
    /** The export's parameters as requested (EPCIS window and filters; empty for a snapshot). */
    parameters: text("parameters", { mode: "json" }).$type<ExportEpcisQuery | Record<string, never>>().notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    /** Plain-text failure summary (no secrets, no storage details). */
    failure: text("failure"),
    /** Content-store key of the ciphertext; internal only. */
    resultKey: text("result_key"),
    /** Envelope header (wrapped data key, IV, KEK id) of the ciphertext; internal only. */
    resultHeader: text("result_header", { mode: "json" }).$type<EnvelopeHeader>(),
    resultSha256: text("result_sha256"),
    resultBytes: integer("result_bytes"),
    /** EPCIS events or snapshot records written. */
    resultCount: integer("result_count"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("interop_jobs_state_idx").on(t.state, t.createdAt, t.id)],
);
