// Insurance: policies are created pending and approved by a member other than their
// creator (maker/checker); only an approved policy covers assets; a claim names an
// asset and is filed against the coverage in force on the incident date.
import { and, eq, gte, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { saveVersion } from "../../../platform/db/records.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { financeCoverages, financeInsuranceClaims, financeInsurancePolicies } from "./insurance.tables.ts";
import { requireOwnedItem } from "../value-entries/entries.service.ts";
import { Dec } from "../depreciation/schedule.ts";
import type {
  ApproveInsurancePolicy,
  Coverage,
  CreateCoverage,
  CreateInsuranceClaim,
  CreateInsurancePolicy,
  InsuranceClaim,
  InsurancePolicy,
} from "./insurance.schemas.ts";

type PolicyRow = typeof financeInsurancePolicies.$inferSelect;
type CoverageRow = typeof financeCoverages.$inferSelect;
type ClaimRow = typeof financeInsuranceClaims.$inferSelect;

function toPolicyDto(r: PolicyRow): z.infer<typeof InsurancePolicy> {
  const { currency, premium, ...rest } = r;
  return { ...rest, premium: { amount: premium, currency } };
}
function toCoverageDto(r: CoverageRow): z.infer<typeof Coverage> {
  const { currency, sumInsured, ...rest } = r;
  return { ...rest, sumInsured: { amount: sumInsured, currency } };
}
function toClaimDto(r: ClaimRow): z.infer<typeof InsuranceClaim> {
  const { currency, amountClaimed, ...rest } = r;
  return { ...rest, amountClaimed: { amount: amountClaimed, currency } };
}

/** A pending policy; one per insurer and policy number (409 duplicate). */
export async function createInsurancePolicy(ctx: RequestCtx, input: z.output<typeof CreateInsurancePolicy>): Promise<z.infer<typeof InsurancePolicy>> {
  if (input.endsOn < input.startsOn) throw invalid("/body/endsOn", "must be on or after startsOn");
  return withTx(ctx, async (ctx) => {
    const same = (
      await db(ctx)
        .select({ id: financeInsurancePolicies.id })
        .from(financeInsurancePolicies)
        .where(and(eq(financeInsurancePolicies.insurer, input.insurer), eq(financeInsurancePolicies.policyNumber, input.policyNumber)))
    )[0];
    if (same) throw new AppError("duplicate", `policy ${input.policyNumber} of ${input.insurer} is already recorded`, { extras: { policyId: same.id } });
    const row: PolicyRow = {
      ...newRecordMeta(ctx),
      insurer: input.insurer,
      policyNumber: input.policyNumber,
      currency: input.premium.currency,
      premium: input.premium.amount,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      state: "pending",
      approvedBy: null,
      approvedAt: null,
      approvalReason: null,
    };
    await writer(ctx).insert(financeInsurancePolicies).values(row);
    return toPolicyDto(row);
  });
}

/** Approval by a member other than the creator (403 maker_cannot_decide), of a pending policy only (409). */
export async function approveInsurancePolicy(ctx: RequestCtx, id: string, input: z.output<typeof ApproveInsurancePolicy>): Promise<z.infer<typeof InsurancePolicy>> {
  return withTx(ctx, async (ctx) => {
    const row = (await db(ctx).select().from(financeInsurancePolicies).where(eq(financeInsurancePolicies.id, id)))[0];
    if (!row) throw notFound("insurance policy");
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "you recorded this policy; another member must approve it");
    assertVersion("insurance policy", row, input.expectedVersion);
    if (row.state !== "pending") throw new AppError("state_conflict", `the policy is already ${row.state}`, { extras: { state: row.state } });
    const next = await saveVersion(
      writer(ctx),
      financeInsurancePolicies,
      row,
      { state: "approved", approvedBy: ctx.actorId, approvedAt: ctx.nowIso, approvalReason: input.reason ?? null },
      ctx.nowIso,
    );
    return toPolicyDto(next);
  });
}

/** Links an owned asset to an approved policy for a positive sum in the policy's currency; once per policy and asset. */
export async function createCoverage(ctx: RequestCtx, input: z.output<typeof CreateCoverage>): Promise<z.infer<typeof Coverage>> {
  return withTx(ctx, async (ctx) => {
    const policy = (await db(ctx).select().from(financeInsurancePolicies).where(eq(financeInsurancePolicies.id, input.policyId)))[0];
    if (!policy) throw invalid("/body/policyId", "no such insurance policy");
    if (policy.state !== "approved") throw new AppError("state_conflict", `the policy is ${policy.state}; only an approved policy covers assets`, { extras: { state: policy.state } });
    await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    if (input.sumInsured.currency !== policy.currency) throw invalid("/body/sumInsured/currency", `the policy is in ${policy.currency}`);
    if (!new Dec(input.sumInsured.amount).gt(0)) throw invalid("/body/sumInsured/amount", "must be positive");
    const same = (
      await db(ctx)
        .select({ id: financeCoverages.id })
        .from(financeCoverages)
        .where(and(eq(financeCoverages.policyId, policy.id), eq(financeCoverages.itemId, input.itemId)))
    )[0];
    if (same) throw new AppError("duplicate", "the asset is already covered by this policy", { extras: { coverageId: same.id } });
    const row: CoverageRow = {
      id: ctx.deps.newId(),
      policyId: policy.id,
      itemId: input.itemId,
      sumInsured: input.sumInsured.amount,
      currency: input.sumInsured.currency,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeCoverages).values(row);
    return toCoverageDto(row);
  });
}

/**
 * A claim for an asset's loss: the asset must be covered by an approved policy in force
 * on the incident date (409 otherwise); when several are, the one with the largest sum
 * insured takes it. The amount is in that coverage's currency and at most its sum insured.
 */
export async function createInsuranceClaim(ctx: RequestCtx, input: z.output<typeof CreateInsuranceClaim>): Promise<z.infer<typeof InsuranceClaim>> {
  if (input.incidentDate > ctx.nowIso.slice(0, 10)) throw invalid("/body/incidentDate", "must not be in the future");
  if (!new Dec(input.amountClaimed.amount).gt(0)) throw invalid("/body/amountClaimed/amount", "must be positive");
  return withTx(ctx, async (ctx) => {
    await requireOwnedItem(ctx, input.itemId, "/body/itemId");
    const inForce = await db(ctx)
      .select({ coverage: financeCoverages })
      .from(financeCoverages)
      .innerJoin(financeInsurancePolicies, eq(financeInsurancePolicies.id, financeCoverages.policyId))
      .where(
        and(
          eq(financeCoverages.itemId, input.itemId),
          eq(financeInsurancePolicies.state, "approved"),
          lte(financeInsurancePolicies.startsOn, input.incidentDate),
          gte(financeInsurancePolicies.endsOn, input.incidentDate),
        ),
      );
    if (inForce.length === 0) throw new AppError("state_conflict", `the asset is not covered by an approved policy in force on ${input.incidentDate}`);
    const coverage = inForce
      .map((r) => r.coverage)
      .sort((a, b) => new Dec(b.sumInsured).comparedTo(a.sumInsured) || a.id.localeCompare(b.id))[0]!;
    if (input.amountClaimed.currency !== coverage.currency) throw invalid("/body/amountClaimed/currency", `the coverage is in ${coverage.currency}`);
    if (new Dec(input.amountClaimed.amount).gt(coverage.sumInsured)) throw invalid("/body/amountClaimed/amount", `exceeds the sum insured of ${coverage.sumInsured} ${coverage.currency}`);
    const row: ClaimRow = {
      id: ctx.deps.newId(),
      coverageId: coverage.id,
      policyId: coverage.policyId,
      itemId: input.itemId,
      incidentDate: input.incidentDate,
      amountClaimed: input.amountClaimed.amount,
      currency: input.amountClaimed.currency,
      description: input.description,
      state: "submitted",
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(financeInsuranceClaims).values(row);
    return toClaimDto(row);
  });
}
