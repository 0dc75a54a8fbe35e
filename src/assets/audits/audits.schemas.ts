import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { WordFilter, WORD_FILTER_NOTE } from "../../platform/search/word-filter.ts";
import { CONDITIONS } from "../kernel/index.ts";
import { AUDIT_EVENT_KINDS, AUDIT_STATUSES, RESULT_KINDS, REVIEW_STATES } from "./audits.states.ts";

/** Locations or categories one audit's scope may name. */
export const SCOPE_MAX = 50;
/** Counts in one POST /audits/{id}/counts (contract §12: collection batch writes). */
export const COUNT_ENTRIES_MAX = 100;
export const COUNT_QUANTITY_MAX = 1_000_000_000;

const OptionalVersion = ExpectedVersion.optional();

export const AuditScope = z
  .object({
    locationIds: z.array(z.string()).openapi({ description: "These locations and every location inside them" }),
    categoryIds: z.array(z.string()).openapi({ description: "Items of these categories" }),
  })
  .openapi("AuditScope", { description: "Both given: items of those categories at those locations. An empty list does not narrow." });

export const Audit = z
  .object({
    ...RecordMeta,
    name: z.string(),
    status: z.enum(AUDIT_STATUSES).openapi({ description: "planned → counting (start) → in_review (close-counting) → posted (post)" }),
    scope: AuditScope,
    dueAt: Timestamp.nullable(),
    startedAt: Timestamp.nullable().openapi({ description: "When counting started and the expected list was frozen" }),
    countingClosedAt: Timestamp.nullable().openapi({ description: "When counting closed and the results were frozen for review" }),
    postedAt: Timestamp.nullable(),
    version: z.number().int(),
  })
  .openapi("Audit");

const countsOf = <T extends readonly string[]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T[number], z.ZodNumber>);

export const AuditEvent = z
  .object({
    id: z.string(),
    kind: z.enum(AUDIT_EVENT_KINDS),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("AuditEvent");

export const AuditDetail = Audit.extend({
  expectedItems: z.number().int().openapi({ description: "Items on the expected list (0 until counting starts)" }),
  countedItems: z.number().int().openapi({ description: "Distinct items counted so far, by anyone" }),
  resultsByKind: countsOf(RESULT_KINDS).openapi({ description: "Results per kind; every kind is present" }),
  resultsByReview: countsOf(REVIEW_STATES).openapi({ description: "Results per review state; `pending` discrepancies block posting" }),
  history: z.array(AuditEvent).openapi({ description: "The audit's history, newest first (at most 100 entries)" }),
}).openapi("AuditDetail");

export const ListAuditsQuery = z.strictObject({
  q: WordFilter.openapi({ description: `Words that each begin a word of the audit's name (case and accents ignored); at most 200 characters. ${WORD_FILTER_NOTE}` }),
  status: csvEnum(AUDIT_STATUSES),
  locationId: Id.optional().openapi({
    description: "Audits whose location scope overlaps this location: a scope location inside it (at any depth), the location itself, or one around it",
  }),
  ...PageQueryShape,
});
export const AuditList = listEnvelope(Audit, "AuditList");

export const CreateAudit = z
  .strictObject({
    name: freeText(200),
    locationIds: z
      .array(Id)
      .min(1)
      .max(SCOPE_MAX)
      .optional()
      .openapi({ description: "Active locations; each includes every location inside it. Duplicates count once." }),
    categoryIds: z.array(Id).min(1).max(SCOPE_MAX).optional().openapi({ description: "Active categories. Duplicates count once." }),
    dueAt: Instant.optional().openapi({ description: "When counting should be finished; in the future" }),
  })
  .openapi("CreateAudit", { description: "At least one of locationIds and categoryIds is required (400 at /body/locationIds otherwise)." });

export const StartAudit = z.strictObject({ expectedVersion: OptionalVersion }).openapi("StartAudit");
export const CloseAuditCounting = z.strictObject({ expectedVersion: OptionalVersion }).openapi("CloseAuditCounting");
export const PostAudit = z.strictObject({ expectedVersion: OptionalVersion }).openapi("PostAudit");

export const AuditCountEntry = z
  .strictObject({
    itemId: Id.optional(),
    raw: freeText(2048).optional().openapi({ description: "A scanned identifier (any spelling /scan/resolve accepts), resolved to its item" }),
    locationId: Id.openapi({ description: "Where the item was seen; an active location within the audit's location scope" }),
    condition: z.enum(CONDITIONS).optional().openapi({ description: "The condition seen; absent: not judged" }),
    quantity: z
      .number()
      .int()
      .min(0)
      .max(COUNT_QUANTITY_MAX)
      .optional()
      .openapi({ description: "Units on hand, for a quantity-tracked item; a serialised item counts 1 (any other value is 400)" }),
  })
  .superRefine((b, ctx) => {
    if ((b.itemId === undefined) === (b.raw === undefined)) ctx.addIssue({ code: "custom", path: [], message: "give exactly one of itemId or raw" });
  })
  .openapi("AuditCountEntry", { description: "Exactly one of itemId or raw.", oneOf: [{ required: ["itemId"] }, { required: ["raw"] }] });

export const RecordAuditCounts = z
  .strictObject({
    entries: z
      .array(AuditCountEntry)
      .min(1)
      .max(COUNT_ENTRIES_MAX)
      .openapi({ description: `1–${COUNT_ENTRIES_MAX} counts; one item at most once per request` }),
  })
  .openapi("RecordAuditCounts");

export const AuditCountOutcome = z
  .object({
    itemId: z.string(),
    resultId: z.string(),
    kind: z.enum(RESULT_KINDS).openapi({ description: "The item's result after this count" }),
  })
  .openapi("AuditCountOutcome");

export const AuditCounted = Audit.extend({
  entries: z.array(AuditCountOutcome).openapi({ description: "Each entry of the request, in order: the item it resolved to and that item's result now" }),
}).openapi("AuditCounted");

export const AuditCount = z
  .object({
    counterId: z.string(),
    locationId: z.string(),
    condition: z.enum(CONDITIONS).nullable(),
    quantity: z.number().int().nullable(),
    countedAt: Timestamp,
  })
  .openapi("AuditCount");

export const AuditReview = z
  .object({
    decision: z.enum(["accept", "reject"]),
    reason: z.string(),
    reviewedBy: z.string(),
    reviewedAt: Timestamp,
  })
  .openapi("AuditReview");

export const AuditResult = z
  .object({
    id: Id,
    auditId: z.string(),
    itemId: z.string(),
    kind: z.enum(RESULT_KINDS).openapi({
      description:
        "found: expected and counted where expected (condition unchanged or not judged); missing: expected, counted by nobody; unexpected: counted, not expected; " +
        "wrong_location: expected, counted elsewhere; condition_change: expected, counted where expected in another condition. The latest count decides.",
    }),
    expected: z.boolean(),
    recordedLocationId: z.string().openapi({ description: "Where the register had the item: at the start for expected items, at the first count for unexpected ones" }),
    recordedCondition: z.enum(CONDITIONS),
    recordedQuantity: z.number().int(),
    countedLocationId: z.string().nullable(),
    countedCondition: z.enum(CONDITIONS).nullable(),
    countedQuantity: z.number().int().nullable(),
    counters: z.array(z.string()).openapi({ description: "Who counted the item (they may not review this result)" }),
    counts: z.array(AuditCount).openapi({ description: "Each counter's count, latest first" }),
    reviewState: z.enum(REVIEW_STATES).openapi({ description: "not_needed for found results; a discrepancy is pending until reviewed" }),
    // A union, not .nullable(): the OpenAPI generator drops null from a nullable $ref.
    review: z.union([AuditReview, z.null()]).openapi({ description: "The latest review decision (a result may be reviewed again until the audit is posted)" }),
    appliedAt: Timestamp.nullable().openapi({ description: "When posting applied this accepted result to the register" }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    canDecide: z.boolean().openapi({
      description:
        "Whether the caller may review this result now: the audit is in_review (a result may be reviewed again until posting), the result is a discrepancy, " +
        "the caller holds ams_review and did not count the item. For building reviewer controls.",
    }),
  })
  .openapi("AuditResult");

export const ListAuditResultsQuery = z.strictObject({
  kind: csvEnum(RESULT_KINDS),
  reviewState: csvEnum(REVIEW_STATES),
  ...PageQueryShape,
});
export const AuditResultList = listEnvelope(AuditResult, "AuditResultList");

export const AuditResultParams = z.strictObject({ id: Id, resultId: Id });

export const ReviewAuditResult = z
  .strictObject({
    decision: z.enum(["accept", "reject"]),
    reason: freeText(1000, { multiline: true }),
    expectedVersion: OptionalVersion.openapi({ description: "The result's current version" }),
  })
  .openapi("ReviewAuditResult");
