// Background exports: POST /interoperability/jobs, GET /interoperability/jobs/{id}
// and its result download.
import { z } from "@hono/zod-openapi";
import { Id, Instant } from "../../platform/http/common-schemas.ts";
import { MOVEMENT_KINDS } from "../kernel/index.ts";
import { EPCIS_MAX_DAYS, EpcisExportDocument } from "./epcis.schemas.ts";
import { CanonicalSnapshot } from "./snapshot.schemas.ts";

export const CreateEpcisJob = z
  .strictObject({
    format: z.literal("epcis"),
    from: Instant.openapi({ description: "Events whose eventTime is at or after this instant." }),
    to: Instant.openapi({ description: `Events before this instant; after from and at most ${EPCIS_MAX_DAYS} days later.` }),
    itemId: Id.optional(),
    kind: z.array(z.enum(MOVEMENT_KINDS)).min(1).max(MOVEMENT_KINDS.length).optional().openapi({ description: "Only these movement kinds." }),
  })
  .openapi("CreateEpcisJob");

export const CreateSnapshotJob = z.strictObject({ format: z.literal("snapshot") }).openapi("CreateSnapshotJob");

export const CreateInteropJob = z
  .discriminatedUnion("format", [CreateEpcisJob, CreateSnapshotJob])
  .openapi("CreateInteropJob", { description: "An EPCIS export of a window (same bounds as GET /interoperability/epcis) or a whole canonical snapshot." });
export type CreateInteropJob = z.output<typeof CreateInteropJob>;

export const InteropJob = z
  .object({
    id: z.string(),
    format: z.enum(["epcis", "snapshot"]),
    state: z.enum(["queued", "running", "succeeded", "failed"]),
    parameters: z.record(z.string(), z.unknown()).openapi({ description: "The export's window and filters as requested (empty for a snapshot)." }),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    failure: z.string().nullable(),
    result: z
      .object({
        contentType: z.literal("application/json"),
        bytes: z.number().int(),
        sha256: z.string().openapi({ description: "SHA-256 (hex) of the result document." }),
        count: z.number().int().openapi({ description: "EPCIS events, or snapshot records, it holds." }),
      })
      .nullable()
      .openapi({ description: "Present once succeeded; download it at /interoperability/jobs/{id}/result." }),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    createdBy: z.string(),
  })
  .openapi("InteropJob");
export type InteropJobDto = z.infer<typeof InteropJob>;

export const InteropJobResult = z
  .union([EpcisExportDocument, CanonicalSnapshot])
  .openapi("InteropJobResult", { description: "The EPCISDocument or canonical snapshot the job produced." });
