import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import type { EnvelopeHeader } from "../../platform/crypto/envelope.ts";
import { CLASSIFICATIONS, SCAN_STATES, TARGET_TYPES } from "./evidence.states.ts";

/**
 * One protected file. The bytes live in the content store as AES-256-GCM ciphertext
 * under `storage_key`; everything needed to decrypt them (wrapped data key, IV, KEK
 * id) is `envelope`, kept here and never in the store or a response.
 */
export const evidence = sqliteTable(
  "evidence",
  {
    id: text("id").primaryKey(),
    targetType: text("target_type", { enum: TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    classification: text("classification", { enum: CLASSIFICATIONS }).notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    /** The Content-Type the uploader declared for the file part. */
    declaredType: text("declared_type").notNull(),
    /** What the first bytes say the file is (see platform/blobs/sniff.ts). */
    sniffedType: text("sniffed_type").notNull(),
    sha256: text("sha256").notNull(),
    scanState: text("scan_state", { enum: SCAN_STATES }).notNull(),
    /** When the automatic scan finished without a finding; null until then. A human may clear a file only after it. */
    scannedAt: text("scanned_at"),
    /** Why the file was quarantined or failed: a scanner signature, a type mismatch, a scanner error. */
    scanFinding: text("scan_finding"),
    storageKey: text("storage_key").notNull(),
    envelope: text("envelope", { mode: "json" }).$type<EnvelopeHeader>().notNull(),
    keyId: text("key_id").notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: text("reviewed_at"),
    reviewReason: text("review_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
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
export const evidenceEvents = sqliteTable(
  "evidence_events",
  {
    id: text("id").primaryKey(),
    evidenceId: text("evidence_id")
      .notNull()
      .references(() => evidence.id),
    kind: text("kind", { enum: ["upload", "download", "review", "scan"] }).notNull(),
    actorId: text("actor_id").notNull(),
    recordedAt: text("recorded_at").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("evidence_events_evidence_idx").on(t.evidenceId, t.recordedAt, t.id)],
);
