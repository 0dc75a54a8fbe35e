// Governed policies: a typed document drafted and revised by its author, submitted
// at an exact revision, and approved or rejected by someone else (recent AAL2,
// policy_approve). Approval activates it, supersedes the active policy of its
// type and commits a policy_activation receipt in the same transaction; every
// change appends to the policy's history. The reads at the end are the hooks
// other domains enforce the active policies through.
import { createHash } from "node:crypto";
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import { FilterSet, paginate } from "../../platform/paging/paging.ts";
import { canonicalJson } from "../../platform/json/canonical-json.ts";
import { zodIssuesToFieldErrors } from "../../platform/http/validation.ts";
import { requireCategory } from "../catalogue/index.ts";
import { applyRoleDefaults } from "../capabilities/index.ts";
import { policies, policyEvents, policyReceipts, policyRevisions } from "./policies.tables.ts";
import { assertPolicyMove } from "./policies.states.ts";
import {
  POLICY_DOCUMENTS,
  type CreatePolicy,
  type DecidePolicy,
  type FourEyesOperation,
  type ListPoliciesQuery,
  type PolicyDocumentOf,
  type PolicyType,
  type RevisePolicy,
  type SubmitPolicy,
} from "./policies.schemas.ts";

export type PolicyRow = typeof policies.$inferSelect;
type ReceiptRow = typeof policyReceipts.$inferSelect;
type RevisionRow = typeof policyRevisions.$inferSelect;
type AnyDocument = PolicyDocumentOf<PolicyType>;

function toReceiptDto(r: ReceiptRow) {
  return {
    id: r.id,
    kind: r.kind,
    policyId: r.policyId,
    policyType: r.policyType as PolicyType,
    revision: r.revision,
    documentSha256: r.documentSha256,
    supersededPolicyId: r.supersededPolicyId,
    approvedBy: r.approvedBy,
    approvedAt: r.approvedAt,
    reason: r.reason,
  };
}

/**
 * Whether a decision by the caller would pass the author and capability checks: the
 * policy is in review, not theirs, and they hold policy_approve (step-up is checked
 * when deciding).
 */
function mayDecide(ctx: RequestCtx, r: PolicyRow): boolean {
  return r.state === "in_review" && r.createdBy !== ctx.actorId && ctx.capabilities.has("policy_approve");
}

/** The policy as the caller sees it (`canDecide` is theirs). */
export function toPolicyDto(ctx: RequestCtx, r: PolicyRow, receipt: ReceiptRow | null | undefined) {
  return {
    id: r.id,
    type: r.type,
    state: r.state,
    revision: r.revision,
    document: r.document as AnyDocument,
    submittedAt: r.submittedAt,
    submittedBy: r.submittedBy,
    decidedAt: r.decidedAt,
    decidedBy: r.decidedBy,
    decisionReason: r.decisionReason,
    supersededAt: r.supersededAt,
    supersededByPolicyId: r.supersededByPolicyId,
    activationReceipt: receipt ? toReceiptDto(receipt) : null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
    canDecide: mayDecide(ctx, r),
  };
}

function toRevisionDto(r: RevisionRow) {
  return { revision: r.revision, document: r.document as AnyDocument, createdAt: r.createdAt, createdBy: r.createdBy };
}

// ---------------------------------------------------------------- reads

export async function listPolicies(ctx: RequestCtx, q: z.output<typeof ListPoliciesQuery>) {
  const filters = new FilterSet()
    .add("type", q.type, (v) => inArray(policies.type, v))
    .add("state", q.state, (v) => inArray(policies.state, v));
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      where: filters.where(),
      orderTs: policies.updatedAt,
      orderId: policies.id,
      // Receipts ride along (one per activated policy), so a page is one query.
      page: (qr: Querier, where: SQL | undefined, orderBy: SQL[], limit: number) =>
        qr
          .select({ p: policies, r: policyReceipts })
          .from(policies)
          .leftJoin(policyReceipts, eq(policyReceipts.policyId, policies.id))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit),
      count: (qr: Querier, where: SQL | undefined) => qr.select({ n: count() }).from(policies).where(where),
      position: (row) => ({ t: row.p.updatedAt, i: row.p.id }),
    },
    (row) => toPolicyDto(ctx, row.p, row.r),
  );
}

/** The policy with its receipt, history and revisions, newest first, from one snapshot. */
export async function getPolicy(ctx: RequestCtx, id: string) {
  const [rows, receipts, events, revisions] = await readSnapshot(ctx, (q) => [
    q.select().from(policies).where(eq(policies.id, id)),
    q.select().from(policyReceipts).where(eq(policyReceipts.policyId, id)),
    historyOf(q, policyEvents, id),
    q.select().from(policyRevisions).where(eq(policyRevisions.policyId, id)).orderBy(desc(policyRevisions.revision)),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("policy");
  return { ...toPolicyDto(ctx, row, receipts[0]), history: events.map((e) => toEventDto(e, { revision: e.revision })), revisions: revisions.map(toRevisionDto) };
}

/** For the reviewer picker (eligible users): the author of a policy, else 404. */
export async function policyMakers(ctx: TenantCtx, id: string): Promise<string[]> {
  return [(await loadPolicy(ctx, id)).createdBy];
}

// ---------------------------------------------------------------- shared steps

async function loadPolicy(ctx: TenantCtx, id: string): Promise<PolicyRow> {
  const row = (await db(ctx).select().from(policies).where(eq(policies.id, id)))[0];
  if (!row) throw notFound("policy");
  return row;
}

async function addRevision(ctx: TenantCtx, policyId: string, revision: number, document: AnyDocument): Promise<void> {
  await writer(ctx).insert(policyRevisions).values({ policyId, revision, document, createdAt: ctx.nowIso, createdBy: ctx.actorId });
}

/** A change of the record: its next version. */
const savePolicy = (ctx: TenantCtx, row: PolicyRow, change: Partial<PolicyRow>) => saveVersion(writer(ctx), policies, row, change, ctx.nowIso);

/** Only a draft's author revises or submits it. */
function assertAuthor(ctx: TenantCtx, row: PolicyRow, action: string): void {
  if (row.createdBy !== ctx.actorId) throw new AppError("capability_denied", `only the policy's author (${row.createdBy}) may ${action} it`);
}

function assertRevision(row: PolicyRow, expected: number): void {
  if (row.revision !== expected) throw new AppError("version_conflict", `policy is at revision ${row.revision}, not ${expected}`);
}

/** 400 at the first repeated entry of a list that must hold distinct values. */
function assertDistinct(list: readonly unknown[], path: string, key: (v: unknown) => unknown = (v) => v): void {
  const seen = new Set<unknown>();
  list.forEach((v, i) => {
    const k = key(v);
    if (seen.has(k)) throw invalid(`${path}/${i}`, "duplicate entry");
    seen.add(k);
  });
}

/**
 * Rules of a document beyond its shape (`path` points at the document in the
 * request): lists hold distinct entries, and a depreciation rule names an active
 * catalogue category, each once.
 */
async function checkDocument(ctx: TenantCtx, type: PolicyType, document: AnyDocument, path: string): Promise<void> {
  if (type === "identity") {
    const doc = document as PolicyDocumentOf<"identity">;
    assertDistinct(doc.allowedSchemes, `${path}/allowedSchemes`);
    assertDistinct(doc.gs1CompanyPrefixes, `${path}/gs1CompanyPrefixes`);
  } else if (type === "depreciation") {
    const doc = document as PolicyDocumentOf<"depreciation">;
    assertDistinct(doc.categories, `${path}/categories`, (r) => (r as { categoryId: string }).categoryId);
    for (const [i, rule] of doc.categories.entries()) await requireCategory(ctx, rule.categoryId, `${path}/categories/${i}/categoryId`);
  } else if (type === "permissions") {
    const doc = document as PolicyDocumentOf<"permissions">;
    for (const [key, roles] of Object.entries(doc.roleDefaults)) if (roles) assertDistinct(roles, `${path}/roleDefaults/${key}`);
    assertDistinct(doc.fourEyes, `${path}/fourEyes`);
  }
}

/** The document parsed as its policy type's (400 at `/body/document/...` otherwise). */
function parseDocument(type: PolicyType, document: unknown): AnyDocument {
  const r = POLICY_DOCUMENTS[type].safeParse(document);
  if (!r.success) {
    const errors = zodIssuesToFieldErrors(r.error.issues, "body/document");
    throw new AppError("validation_failed", `not a valid ${type} policy document: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, { errors });
  }
  return r.data;
}

export function documentSha256(document: unknown): string {
  return createHash("sha256").update(canonicalJson(document)).digest("hex");
}

// ---------------------------------------------------------------- commands

/** A new draft at revision 1, authored by the caller now. */
export async function createPolicy(ctx: RequestCtx, input: z.output<typeof CreatePolicy>) {
  return withTx(ctx, async (ctx) => {
    await checkDocument(ctx, input.type, input.document, "/body/document");
    const row: PolicyRow = {
      ...newRecordMeta(ctx),
      type: input.type,
      state: "draft",
      revision: 1,
      document: input.document as Record<string, unknown>,
      submittedAt: null,
      submittedBy: null,
      decidedAt: null,
      decidedBy: null,
      decisionReason: null,
      supersededAt: null,
      supersededByPolicyId: null,
    };
    await writer(ctx).insert(policies).values(row);
    await addRevision(ctx, row.id, 1, input.document);
    await appendEvent(ctx, policyEvents, row.id, "created", null, {}, { revision: row.revision });
    await policyChanged(ctx, row.id, "created");
    return getPolicy(ctx, row.id);
  });
}

/** A new revision of a draft (author only): the whole document replaced, revision + 1. */
export async function revisePolicy(ctx: RequestCtx, id: string, input: z.output<typeof RevisePolicy>) {
  return withTx(ctx, async (ctx) => {
    const row = await loadPolicy(ctx, id);
    assertAuthor(ctx, row, "revise");
    const document = parseDocument(row.type, input.document);
    await checkDocument(ctx, row.type, document, "/body/document");
    assertRevision(row, input.expectedRevision);
    if (row.state !== "draft") throw new AppError("state_conflict", `only a draft can be revised; this policy is ${row.state}`);
    const next = await savePolicy(ctx, row, { revision: row.revision + 1, document: document as Record<string, unknown> });
    await addRevision(ctx, id, next.revision, document);
    await appendEvent(ctx, policyEvents, next.id, "revised", null, { fromRevision: row.revision }, { revision: next.revision });
    await policyChanged(ctx, next.id, "revised");
    return getPolicy(ctx, id);
  });
}

/** The author submits the exact revision they name for review. */
export async function submitPolicy(ctx: RequestCtx, id: string, input: z.output<typeof SubmitPolicy>) {
  return withTx(ctx, async (ctx) => {
    const row = await loadPolicy(ctx, id);
    assertAuthor(ctx, row, "submit");
    assertRevision(row, input.revision);
    assertPolicyMove(row.state, "in_review", "submit");
    const next = await savePolicy(ctx, row, { state: "in_review", submittedAt: ctx.nowIso, submittedBy: ctx.actorId });
    await appendEvent(ctx, policyEvents, next.id, "submitted", null, {}, { revision: next.revision });
    await policyChanged(ctx, next.id, "submitted");
    return getPolicy(ctx, id);
  });
}

/**
 * Another user decides the revision under review. Approval activates it and, in
 * the same transaction, supersedes the active policy of its type, applies its
 * activation effects (a permissions policy's role defaults) and commits the
 * policy_activation receipt; rejection changes nothing else.
 */
export async function decidePolicy(ctx: RequestCtx, id: string, input: z.output<typeof DecidePolicy>) {
  return withTx(ctx, async (ctx) => {
    const row = await loadPolicy(ctx, id);
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "the author of a policy cannot decide it");
    assertRevision(row, input.expectedRevision);
    if (input.decision === "reject") {
      assertPolicyMove(row.state, "rejected", "reject");
      const next = await savePolicy(ctx, row, { state: "rejected", decidedAt: ctx.nowIso, decidedBy: ctx.actorId, decisionReason: input.reason });
      await appendEvent(ctx, policyEvents, next.id, "rejected", input.reason, {}, { revision: next.revision });
      await policyChanged(ctx, next.id, "rejected");
      return getPolicy(ctx, id);
    }
    assertPolicyMove(row.state, "active", "approve");
    const prior = (await db(ctx).select().from(policies).where(and(eq(policies.type, row.type), eq(policies.state, "active"))))[0];
    if (prior) {
      const superseded = await savePolicy(ctx, prior, { state: "superseded", supersededAt: ctx.nowIso, supersededByPolicyId: row.id });
      await appendEvent(ctx, policyEvents, superseded.id, "superseded", input.reason, { byPolicyId: row.id, byRevision: row.revision }, { revision: superseded.revision });
      await policyChanged(ctx, superseded.id, "superseded");
    }
    const next = await savePolicy(ctx, row, { state: "active", decidedAt: ctx.nowIso, decidedBy: ctx.actorId, decisionReason: input.reason });
    await appendEvent(ctx, policyEvents, next.id, "approved", input.reason, { supersededPolicyId: prior?.id ?? null }, { revision: next.revision });
    await policyChanged(ctx, next.id, "approved");
    await applyActivationEffects(ctx, next);
    await writer(ctx)
      .insert(policyReceipts)
      .values({
        id: ctx.deps.newId(),
        kind: "policy_activation",
        policyId: row.id,
        policyType: row.type,
        revision: row.revision,
        documentSha256: documentSha256(row.document),
        supersededPolicyId: prior?.id ?? null,
        approvedBy: ctx.actorId,
        approvedAt: ctx.nowIso,
        reason: input.reason,
        requestId: ctx.requestId,
      });
    return getPolicy(ctx, id);
  });
}

/**
 * What activation changes besides the policy records. A permissions policy writes
 * the role defaults it names into the capability configuration, so the platform's
 * capability resolution (which may not import a domain) follows it; a change that
 * would leave no active member holding ams_admin fails the approval (409).
 * The other types are read where they apply (the hooks below).
 */
async function applyActivationEffects(ctx: TenantCtx, row: PolicyRow): Promise<void> {
  if (row.type === "permissions") await applyRoleDefaults(ctx, (row.document as PolicyDocumentOf<"permissions">).roleDefaults);
}

// ---------------------------------------------------------------- hooks for other domains

export interface ActivePolicy<T extends PolicyType> {
  id: string;
  revision: number;
  document: PolicyDocumentOf<T>;
}

/**
 * The active policy of a type, or null: one lookup on the partial unique index,
 * read through the caller's context (its open transaction, if any).
 */
export async function activePolicy<T extends PolicyType>(ctx: TenantCtx, type: T): Promise<ActivePolicy<T> | null> {
  const row = (
    await db(ctx)
      .select({ id: policies.id, revision: policies.revision, document: policies.document })
      .from(policies)
      .where(and(eq(policies.type, type), eq(policies.state, "active")))
  )[0];
  return row ? { id: row.id, revision: row.revision, document: row.document as PolicyDocumentOf<T> } : null;
}

/** The active policy's document of a type, or null when none is active. */
export async function activePolicyDocument<T extends PolicyType>(ctx: TenantCtx, type: T): Promise<PolicyDocumentOf<T> | null> {
  return (await activePolicy(ctx, type))?.document ?? null;
}

/** 409 policy_violation naming the active policy that forbids what was asked. */
export function policyViolation(policy: ActivePolicy<PolicyType>, type: PolicyType, detail: string): AppError {
  return new AppError("policy_violation", `${detail} (active ${type} policy ${policy.id}, revision ${policy.revision})`, {
    extras: { policyId: policy.id, policyRevision: policy.revision },
  });
}

/**
 * Whether an operation type needs a second person's approval: the active
 * permissions policy's `fourEyes` list; with no active permissions policy, every
 * operation does (independent review is the spec's default for these operations).
 */
export async function requiresFourEyes(ctx: TenantCtx, operationType: FourEyesOperation): Promise<boolean> {
  const doc = await activePolicyDocument(ctx, "permissions");
  return doc === null ? true : doc.fourEyes.includes(operationType);
}

export interface DepreciationDefaults {
  method: PolicyDocumentOf<"depreciation">["default"]["method"];
  usefulLifeMonths: number;
  convention: PolicyDocumentOf<"depreciation">["default"]["convention"];
  /** `category`: the category's own rule; `default`: the policy's default rule. */
  source: "category" | "default";
  policyId: string;
  policyRevision: number;
}

/**
 * The depreciation method, useful life and convention finance applies to an
 * asset of `categoryId` (null: uncategorised, the default rule): the active
 * depreciation policy's rule for that category, else its default; null when no
 * depreciation policy is active.
 */
export async function depreciationDefaults(ctx: TenantCtx, categoryId: string | null): Promise<DepreciationDefaults | null> {
  const policy = await activePolicy(ctx, "depreciation");
  if (!policy) return null;
  const own = categoryId === null ? undefined : policy.document.categories.find((c) => c.categoryId === categoryId);
  const rule = own ?? policy.document.default;
  return {
    method: rule.method,
    usefulLifeMonths: rule.usefulLifeMonths,
    convention: rule.convention,
    source: own ? "category" : "default",
    policyId: policy.id,
    policyRevision: policy.revision,
  };
}

/** The live streams' `policy.changed` event (created, revised, submitted, decided, superseded), in the change's transaction. */
async function policyChanged(ctx: TenantCtx, policyId: string, action: string): Promise<void> {
  await appendOutboxEvent(ctx, { kind: "policy.changed", aggregateId: policyId, occurredAt: ctx.nowIso, data: { policyId, action } });
}
