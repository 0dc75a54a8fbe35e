import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { scannedFileColumns } from "../../platform/stored-files/columns.ts";
import { EVIDENCE_EVENT_KINDS, TARGET_TYPES } from "./evidence.states.ts";

/**
 * One protected file, bound to a target (platform/stored-files). The bytes live in
 * the content store as AES-256-GCM ciphertext under `storage_key`; everything needed
 * to decrypt them (wrapped data key, IV, KEK id) is `envelope`, kept here and never
 * in the store or a response.
 */
export const evidence = sqliteTable(
  "evidence",
  {
    id: text("id").primaryKey(),
    targetType: text("target_type", { enum: TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    ...scannedFileColumns(),
  },
  (t) => [
    index("evidence_page_idx").on(t.createdAt, t.id),
    // Every counted GET /evidence filter (and the non-admin scope) has an index led by it.
    index("evidence_target_idx").on(t.targetType, t.targetId, t.createdAt, t.id),
    index("evidence_target_id_idx").on(t.targetId, t.createdAt, t.id),
    index("evidence_scan_idx").on(t.scanState, t.createdAt, t.id),
    // The scan job's queue: pending and not yet scanned, oldest first.
    index("evidence_scan_queue_idx").on(t.scanState, t.scannedAt, t.createdAt, t.id),
    index("evidence_classification_idx").on(t.classification, t.createdAt, t.id),
  ],
);

/** Activity on evidence: upload, download, review, scan — who and when. */
export const evidenceEvents = eventLogTable(
  "evidence_events",
  { evidenceId: text("evidence_id").notNull().references(() => evidence.id) },
  { index: "evidence_events_evidence_idx", kinds: EVIDENCE_EVENT_KINDS, reason: false },
);
