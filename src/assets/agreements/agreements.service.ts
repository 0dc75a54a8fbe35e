// Agreements: leases, loans, rentals, warranties and service contracts, each with one
// counterparty (checked through the parties service). Other modules check the
// agreements a request names through requireAgreement.
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import { invalid } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { insertRecord, loadOr404, requireActive, updateVersioned } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
import { ftsMatchQuery } from "../../platform/search/fts-query.ts";
import { partyIdsMatching, requireParty } from "../parties/index.ts";
import { agreements } from "./agreements.tables.ts";
import {
  DEFAULT_TERMS,
  ENDS_BEFORE_STARTS,
  type AgreementDto,
  type CreateAgreement,
  type ListAgreementsQuery,
  type UpdateAgreement,
} from "./agreements.schemas.ts";

export type AgreementRow = typeof agreements.$inferSelect;

export function toAgreementDto(r: AgreementRow): AgreementDto {
  const { id, status, version, createdAt, updatedAt, createdBy, kind, partyId, startsOn, endsOn, reference, terms } = r;
  return { id, status, version, createdAt, updatedAt, createdBy, kind, partyId, startsOn, endsOn, reference, terms };
}

// ---------------------------------------------------------------- references

/**
 * The check other modules use for an agreement id named in a request body: a missing
 * or archived agreement is a 400 at `path` (e.g. `/body/agreementId`), never a 404.
 * Reads through the context (the open transaction, if any).
 */
export const requireAgreement = (ctx: TenantCtx, id: string, path: string): Promise<AgreementRow> =>
  requireActive(ctx, agreements, id, path, "agreement");

/**
 * q on agreements: a case-insensitive reference prefix (expression index), or the
 * counterparty by FTS. Settings records use it too.
 */
export function agreementText(text: string): SQL {
  const refPrefix = sql`(lower(${agreements.reference}) >= lower(${text}) AND lower(${agreements.reference}) < lower(${text}) || char(1114111))`;
  const match = ftsMatchQuery(text);
  if (!match) return refPrefix;
  return sql`(${refPrefix} OR ${agreements.partyId} IN ${partyIdsMatching(match)})`;
}

// ---------------------------------------------------------------- commands and reads

export async function createAgreement(ctx: RequestCtx, input: CreateAgreement): Promise<AgreementDto> {
  if (input.endsOn !== undefined && input.endsOn < input.startsOn) throw invalid("/body/endsOn", ENDS_BEFORE_STARTS);
  return withTx(ctx, async (ctx) => {
    await requireParty(ctx, input.partyId, "/body/partyId");
    const { kind, partyId, startsOn } = input;
    const row = await insertRecord(ctx, agreements, {
      kind,
      partyId,
      startsOn,
      endsOn: input.endsOn ?? null,
      reference: input.reference ?? null,
      terms: input.terms ?? DEFAULT_TERMS[kind],
    });
    return toAgreementDto(row);
  });
}

export async function getAgreement(ctx: RequestCtx, id: string): Promise<AgreementDto> {
  return toAgreementDto(await loadOr404(db(ctx), agreements, id, "agreement"));
}

export async function updateAgreement(ctx: RequestCtx, id: string, input: UpdateAgreement): Promise<AgreementDto> {
  if (input.startsOn !== undefined && input.endsOn && input.endsOn < input.startsOn) throw invalid("/body/endsOn", ENDS_BEFORE_STARTS);
  const row = await updateVersioned(ctx, agreements, id, "agreement", input, {
    async validate(ctx, row, change) {
      if (change.partyId) await requireParty(ctx, change.partyId, "/body/partyId");
      const startsOn = change.startsOn ?? row.startsOn;
      const endsOn = change.endsOn !== undefined ? change.endsOn : row.endsOn;
      if (endsOn !== null && endsOn < startsOn) {
        throw invalid(input.endsOn !== undefined ? "/body/endsOn" : "/body/startsOn", input.endsOn !== undefined ? ENDS_BEFORE_STARTS : "must not be after endsOn");
      }
    },
  });
  return toAgreementDto(row);
}

export async function listAgreements(ctx: RequestCtx, q: ListAgreementsQuery): Promise<Page<AgreementDto>> {
  const filters = new FilterSet()
    .add("q", q.q, agreementText)
    .add("kind", q.kind, (v) => inArray(agreements.kind, v))
    .add("status", q.status, (v) => inArray(agreements.status, v))
    .add("partyId", q.partyId, (v) => eq(agreements.partyId, v));
  return listByUpdate(ctx, agreements, q, filters, toAgreementDto);
}
