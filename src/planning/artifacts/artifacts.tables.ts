import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { scannedFileColumns } from "../../platform/stored-files/columns.ts";
import { planningProjects } from "../projects/projects.tables.ts";

/**
 * A protected project file (platform/stored-files). The bytes are AES-256-GCM
 * ciphertext in the content store under `storage_key`; `envelope` (wrapped data key,
 * IV, KEK id) stays here. Scanned by the `scans` job like evidence: `scanned_at`
 * queues a pending file until then.
 */
export const planningArtifacts = sqliteTable(
  "planning_artifacts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    planningRecordId: text("planning_record_id"),
    ...scannedFileColumns(),
  },
  (t) => [
    index("planning_artifacts_project_idx").on(t.projectId, t.createdAt, t.id),
    // The scan job's queue: pending and not yet scanned, oldest first.
    index("planning_artifacts_scan_queue_idx").on(t.scanState, t.scannedAt, t.createdAt, t.id),
  ],
);
