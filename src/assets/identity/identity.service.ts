// Identifiers: issuing (one identifier per GS1 key whatever its spelling),
// the identifier lifecycle of contract §9, and resolving raw scans.
import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, type Querier, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta } from "../../platform/tenancy/tenant-context.ts";
import { toItemDto } from "../kernel/index.ts";
import { loadItem, recordItemHistory, requireItem } from "../kernel/index.ts";
import { recordMovement } from "../kernel/index.ts";
import { currentCheckout } from "../custody/index.ts";
import { activePolicy, policyViolation } from "../policies/index.ts";
import { IdentifierFormatError, normaliseIdentifier, parseScan, type IdentifierRef, type NormalisedIdentifier } from "../kernel/index.ts";
import { identifiers } from "./identity.tables.ts";
import { toIdentifierDto, type IdentifierDto, type IdentifierRow, type IdentifierState } from "./identity.dto.ts";
import type { IssueIdentifier, TransitionIdentifier } from "./identity.schemas.ts";

const COMPANY_PREFIX_LENGTHS = [6, 7, 8, 9, 10, 11, 12];

/** Stored spellings that name the same thing: (scheme, value) pairs and EPC URIs. */
export interface LookupKeys {
  pairs: IdentifierRef[];
  epcUris: string[];
}

/**
 * Everything a stored identifier may look like when it names the same key as `ref`.
 * A GS1 key's EPC URN depends on the company prefix length, which the key itself does
 * not tell, so all seven possible URNs are tried (they differ, so none can match another key).
 */
export function lookupKeys(ref: IdentifierRef): LookupKeys {
  const pairs = new Map<string, IdentifierRef>();
  const epcUris = new Set<string>();
  const addPair = (r: IdentifierRef): void => {
    pairs.set(`${r.scheme}\u0000${r.canonical}`, { scheme: r.scheme, canonical: r.canonical });
  };
  addPair(ref);
  if (ref.scheme === "rfid_epc") {
    epcUris.add(ref.canonical);
    try {
      normaliseIdentifier("rfid_epc", ref.canonical).equivalents.forEach(addPair);
    } catch {
      // Not a decodable EPC: only its own spelling applies.
    }
  } else if (ref.scheme === "gs1_giai" || ref.scheme === "gs1_sgtin") {
    for (const companyPrefixLength of COMPANY_PREFIX_LENGTHS) {
      try {
        const epcUri = normaliseIdentifier(ref.scheme, ref.canonical, { companyPrefixLength }).epcUri;
        if (epcUri) {
          epcUris.add(epcUri);
          addPair({ scheme: "rfid_epc", canonical: epcUri });
        }
      } catch {
        // This prefix length does not fit the key.
      }
    }
  }
  return { pairs: [...pairs.values()], epcUris: [...epcUris] };
}

function mergeKeys(all: LookupKeys[]): LookupKeys {
  const pairs = new Map<string, IdentifierRef>();
  const epcUris = new Set<string>();
  for (const k of all) {
    for (const p of k.pairs) pairs.set(`${p.scheme}\u0000${p.canonical}`, p);
    for (const e of k.epcUris) epcUris.add(e);
  }
  return { pairs: [...pairs.values()], epcUris: [...epcUris] };
}

function matches(row: IdentifierRow, keys: LookupKeys): boolean {
  return (
    keys.pairs.some((p) => p.scheme === row.scheme && p.canonical === row.value) ||
    (row.epcUri !== null && keys.epcUris.includes(row.epcUri))
  );
}

/** Identifiers stored under any of the keys (uses the (scheme, value) and epc_uri indexes). */
export async function findIdentifiers(q: Querier, keys: LookupKeys): Promise<IdentifierRow[]> {
  const conditions: SQL[] = keys.pairs.map((p) => and(eq(identifiers.scheme, p.scheme), eq(identifiers.value, p.canonical)) as SQL);
  if (keys.epcUris.length > 0) conditions.push(inArray(identifiers.epcUri, keys.epcUris));
  if (conditions.length === 0) return [];
  return q.select().from(identifiers).where(or(...conditions));
}

// ---------------------------------------------------------------------------------------------
// POST /identifiers/issue

/**
 * The digits a GS1 Company Prefix is the start of: the GIAI itself, the GTIN of an
 * SGTIN without its indicator digit, or, for an EPC URN with no GS1 element string
 * (GRAI, SSCC, SGLN…), the URN's company prefix field. Null: not a GS1 key (a serial, a
 * tag, a URL, or a non-GS1 EPC such as GID or USDoD).
 */
export function gs1PrefixDigits(n: NormalisedIdentifier): string | null {
  const element = n.elementString ?? "";
  const giai = /^\(8004\)(\d+)/.exec(element);
  if (giai) return giai[1]!;
  const gtin = /^\(01\)\d(\d{13})/.exec(element);
  if (gtin) return gtin[1]!;
  const urn = /^urn:epc:id:(?:sgtin|sscc|sgln|grai|giai|gsrn|gsrnp|gdti|cpi|sgcn|ginc|gsin|itip|pgln):(\d+)\./.exec(n.epcUri ?? (n.scheme === "rfid_epc" ? n.canonical : ""));
  return urn ? urn[1]! : null;
}

/**
 * The active identity policy decides which schemes may be issued and, when it
 * lists GS1 Company Prefixes, which prefixes a GS1 key must start with (409 policy_violation).
 */
async function assertIdentityPolicy(ctx: RequestCtx, n: NormalisedIdentifier): Promise<void> {
  const policy = await activePolicy(ctx, "identity");
  if (!policy) return;
  const { allowedSchemes, gs1CompanyPrefixes } = policy.document;
  if (!allowedSchemes.includes(n.scheme)) {
    throw policyViolation(policy, "identity", `scheme ${n.scheme} may not be issued; allowed: ${allowedSchemes.join(", ")}`);
  }
  const digits = gs1PrefixDigits(n);
  if (gs1CompanyPrefixes.length > 0 && digits !== null && !gs1CompanyPrefixes.some((p) => digits.startsWith(p))) {
    throw policyViolation(policy, "identity", `${n.canonical} does not carry an allowed GS1 Company Prefix (${gs1CompanyPrefixes.join(", ")})`);
  }
}

export async function issueIdentifier(ctx: RequestCtx, input: z.output<typeof IssueIdentifier>): Promise<IdentifierDto> {
  if (input.companyPrefixLength !== undefined && input.scheme !== "gs1_giai" && input.scheme !== "gs1_sgtin") {
    throw invalid("/body/companyPrefixLength", "only for the gs1_giai and gs1_sgtin schemes");
  }
  let normalised: NormalisedIdentifier;
  try {
    normalised = normaliseIdentifier(input.scheme, input.value, { companyPrefixLength: input.companyPrefixLength });
  } catch (err) {
    if (err instanceof IdentifierFormatError) throw invalid("/body/value", err.message);
    throw err;
  }
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const item = await requireItem(ctx, input.itemId, "/body/itemId");
    if (item.lifecycle === "disposed") throw new AppError("state_conflict", "a disposed item cannot be tagged");
    await assertIdentityPolicy(ctx, normalised);
    // A value is never reused: retired identifiers keep theirs.
    const clash = (await findIdentifiers(tx, lookupKeys(normalised)))[0];
    if (clash) {
      throw new AppError(
        "duplicate",
        clash.scheme === normalised.scheme && clash.value === normalised.canonical
          ? `${normalised.scheme} ${normalised.canonical} is already issued (identifier ${clash.id}, ${clash.state})`
          : `${normalised.scheme} ${normalised.canonical} names the same key as ${clash.scheme} ${clash.value} (identifier ${clash.id}, ${clash.state})`,
      );
    }
    const row: IdentifierRow = {
      ...newRecordMeta(ctx),
      itemId: item.id,
      scheme: normalised.scheme,
      value: normalised.canonical,
      digitalLink: normalised.digitalLink ?? null,
      epcUri: normalised.epcUri ?? null,
      state: "issued",
    };
    await tx.insert(identifiers).values(row);
    await recordItemHistory(ctx, item.id, "identifier_issued", { identifierId: row.id, scheme: row.scheme, value: row.value });
    await recordMovement(ctx, {
      itemId: item.id,
      kind: "tagged",
      bizLocationId: item.locationId,
      data: { identifierId: row.id, scheme: row.scheme, value: row.value },
    });
    return toIdentifierDto(row);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /identifiers/{id}/transition

const IDENTIFIER_MOVES: Record<IdentifierState, IdentifierState[]> = {
  issued: ["active", "retired"],
  active: ["suspended", "retired"],
  suspended: ["active", "retired"],
  retired: [],
};

export function mayMoveIdentifier(from: IdentifierState, to: IdentifierState): boolean {
  return IDENTIFIER_MOVES[from].includes(to);
}

export async function transitionIdentifier(
  ctx: RequestCtx,
  id: string,
  input: z.output<typeof TransitionIdentifier>,
): Promise<IdentifierDto> {
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const row = (await tx.select().from(identifiers).where(eq(identifiers.id, id)))[0];
    if (!row) throw notFound("identifier");
    assertVersion("identifier", row, input.expectedVersion);
    if (!mayMoveIdentifier(row.state, input.to)) {
      throw new AppError("state_conflict", `an identifier cannot go from ${row.state} to ${input.to}`);
    }
    const next: IdentifierRow = { ...row, state: input.to, version: row.version + 1, updatedAt: ctx.nowIso };
    await tx.update(identifiers).set({ state: next.state, version: next.version, updatedAt: next.updatedAt }).where(eq(identifiers.id, id));
    await recordItemHistory(
      ctx,
      row.itemId,
      "identifier_transitioned",
      { identifierId: row.id, scheme: row.scheme, value: row.value, from: row.state, to: input.to },
      input.reason ?? null,
    );
    return toIdentifierDto(next);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /scan/resolve

export async function resolveScan(ctx: RequestCtx, raw: string) {
  const candidates = parseScan(raw);
  if (candidates.length === 0) throw new AppError("not_found", "the scan is not a recognisable identifier");
  const perCandidate = candidates.map(lookupKeys);
  const q = db(ctx);
  const rows = await findIdentifiers(q, mergeKeys(perCandidate));
  // The most specific reading wins (parseScan's order); retired identifiers never resolve.
  let found: IdentifierRow | undefined;
  for (const keys of perCandidate) {
    found = rows.find((r) => r.state !== "retired" && matches(r, keys));
    if (found) break;
  }
  const tried = candidates.map((c) => ({ scheme: c.scheme, value: c.canonical }));
  if (!found) {
    const retired = rows.find((r) => r.state === "retired");
    throw new AppError(
      "not_found",
      retired ? `identifier ${retired.scheme} ${retired.value} is retired and no longer resolves` : "no identifier matches this scan",
      { extras: { candidates: tried } },
    );
  }
  const item = await loadItem(ctx, found.itemId);
  return { item: toItemDto(item), identifier: toIdentifierDto(found), custody: await currentCheckout(ctx, item.id) };
}

// ---------------------------------------------------------------------------------------------
// GET /identifiers/{id}

export async function getIdentifier(ctx: RequestCtx, id: string): Promise<IdentifierDto> {
  const row = (await db(ctx).select().from(identifiers).where(eq(identifiers.id, id)))[0];
  if (!row) throw notFound("identifier");
  return toIdentifierDto(row);
}

/** The item's identifiers, oldest first (a snapshot query for the item detail). */
export function identifiersOfItemQuery(q: Querier, itemId: string, limit: number) {
  return q.select().from(identifiers).where(eq(identifiers.itemId, itemId)).orderBy(asc(identifiers.createdAt), asc(identifiers.id)).limit(limit);
}
