import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import type { EnvelopeHeader } from "../../platform/crypto/envelope.ts";
import { planningProjects } from "../projects/projects.tables.ts";

export const ARTIFACT_SCAN_STATES = ["pending", "clean", "quarantined", "failed"] as const;
export const ARTIFACT_CLASSIFICATIONS = ["internal", "private", "restricted"] as const;

/**
 * A protected project file. The bytes are AES-256-GCM ciphertext in the content
 * store under `storage_key`; `envelope` (wrapped data key, IV, KEK id) stays here.
 */
export const planningArtifacts = sqliteTable(
  "planning_artifacts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    planningRecordId: text("planning_record_id"),
    classification: text("classification", { enum: ARTIFACT_CLASSIFICATIONS }).notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    declaredType: text("declared_type").notNull(),
    sniffedType: text("sniffed_type").notNull(),
    sha256: text("sha256").notNull(),
    scanState: text("scan_state", { enum: ARTIFACT_SCAN_STATES }).notNull(),
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
  (t) => [index("planning_artifacts_project_idx").on(t.projectId, t.createdAt, t.id)],
);
