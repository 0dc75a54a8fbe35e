// The columns of a stored-file record, for each domain's own table (evidence,
// planning artifacts): the domain declares its id, what the file is bound to and its
// indexes; these are the file's facts, its scan state, where its ciphertext is and
// how to read it, and its review. Functions, since each table needs its own builders.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { EnvelopeHeader } from "../crypto/envelope.ts";
import { CLASSIFICATIONS, SCAN_STATES } from "./states.ts";

function fileColumns() {
  return {
    classification: text("classification", { enum: CLASSIFICATIONS }).notNull(),
    fileName: text("file_name").notNull(),
    /** Plaintext bytes. */
    size: integer("size").notNull(),
    /** The Content-Type the uploader declared for the file part. */
    declaredType: text("declared_type").notNull(),
    /** What the first bytes say the file is (sniff.ts). */
    sniffedType: text("sniffed_type").notNull(),
    /** Hex SHA-256 of the plaintext. */
    sha256: text("sha256").notNull(),
    scanState: text("scan_state", { enum: SCAN_STATES }).notNull(),
  };
}

function storageAndReviewColumns() {
  return {
    /** Why the file was quarantined or failed: a scanner signature, a type mismatch, a scanner error. */
    scanFinding: text("scan_finding"),
    /** Where the ciphertext is in the content store (`<purpose>/<partnerId>/<id>`); never in a response. */
    storageKey: text("storage_key").notNull(),
    /** The wrapped data key, IV and KEK id needed to decrypt it: kept here, never in the store or a response. */
    envelope: text("envelope", { mode: "json" }).$type<EnvelopeHeader>().notNull(),
    /** The envelope's KEK id, as a column for key rotation. */
    keyId: text("key_id").notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: text("reviewed_at"),
    reviewReason: text("review_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  };
}

/** A stored file reviewed by a member, sniffed at upload. */
export function storedFileColumns() {
  return { ...fileColumns(), ...storageAndReviewColumns() };
}

/** A stored file the scan pass (scan.ts) also checks: `scanned_at` queues it until then. */
export function scannedFileColumns() {
  return {
    ...fileColumns(),
    /** When the automatic scan finished; null until then. A reviewer may clear the file only after it. */
    scannedAt: text("scanned_at"),
    ...storageAndReviewColumns(),
  };
}

// Row types only: never called, so no table is declared here.
const storedFileTable = () => sqliteTable("stored_file", { id: text("id").primaryKey(), ...storedFileColumns() });
const scannedFileTable = () => sqliteTable("scanned_file", { id: text("id").primaryKey(), ...scannedFileColumns() });
export type StoredFileTable = ReturnType<typeof storedFileTable>;
export type ScannedFileTable = ReturnType<typeof scannedFileTable>;
export type StoredFileRow = StoredFileTable["$inferSelect"];
export type ScannedFileRow = ScannedFileTable["$inferSelect"];
