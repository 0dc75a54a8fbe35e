// Alerts: a read model over custody, agreements, items, audits, transit, maintenance
// and webhooks (it reads their tables directly; see README). The job computes the
// conditions that hold now, creates one alert per new fingerprint, reopens a
// resolved one whose very condition returned, and resolves every unresolved alert
// whose condition no longer holds. Acknowledging changes the alert only.
import { and, eq, gt, gte, inArray, isNotNull, lte, notInArray, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import { saveVersion } from "../../platform/db/records.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, paginate, tableOrder } from "../../platform/paging/paging.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { agreements } from "../agreements/agreements.tables.ts";
import { items } from "../kernel/kernel.tables.ts";
import { audits } from "../audits/audits.tables.ts";
import { shipments } from "../transit/transit.tables.ts";
import { workOrders } from "../maintenance/maintenance.tables.ts";
import { webhookEndpoints } from "../webhooks/webhooks.tables.ts";
import { alerts } from "./alerts.tables.ts";
import type { AcknowledgeAlert, AlertKind, ListAlertsQuery, SubjectType } from "./alerts.schemas.ts";

type AlertRow = typeof alerts.$inferSelect;

/** A checkout is `due` this long before its dueAt; an audit from this long before its dueAt. */
export const DUE_SOON_MS = 24 * 3600_000;
const DAY_MS = 86_400_000;
const CHUNK = 200;

export interface AlertCondition {
  kind: AlertKind;
  subjectType: SubjectType;
  subjectId: string;
  /** The due condition (a time or a date); part of the fingerprint, so a changed due date is a new alert. */
  dueAt: string | null;
  data: Record<string, unknown>;
}

export function fingerprintOf(c: Pick<AlertCondition, "kind" | "subjectId" | "dueAt">): string {
  return `${c.kind}:${c.subjectId}:${c.dueAt ?? "-"}`;
}

export function toAlertDto(r: AlertRow) {
  return {
    id: r.id,
    kind: r.kind as AlertKind,
    status: r.status,
    fingerprint: r.fingerprint,
    subject: { type: r.subjectType as SubjectType, id: r.subjectId },
    dueAt: r.dueAt,
    data: r.data,
    acknowledgedAt: r.acknowledgedAt,
    acknowledgedBy: r.acknowledgedBy,
    resolvedAt: r.resolvedAt,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

// ---------------------------------------------------------------- reads and the acknowledgement

export async function listAlerts(ctx: RequestCtx, q: z.output<typeof ListAlertsQuery>) {
  const filters = new FilterSet()
    .add("kind", q.kind, (v) => inArray(alerts.kind, v))
    .add("status", q.status, (v) => inArray(alerts.status, v));
  // Alerts are ordered by when they were raised (contract §7), not by their last change.
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...tableOrder(alerts, "createdAt"),
      where: filters.where(),
    },
    toAlertDto,
  );
}

/** Records who saw an open alert and when; the subject record is not touched. */
export async function acknowledgeAlert(ctx: RequestCtx, id: string, input: z.output<typeof AcknowledgeAlert>) {
  return withTx(ctx, async (ctx) => {
    const row = (await writer(ctx).select().from(alerts).where(eq(alerts.id, id)))[0];
    if (!row) throw notFound("alert");
    assertVersion("alert", row, input.expectedVersion);
    if (row.status !== "open") throw new AppError("state_conflict", `the alert is ${row.status}; only an open alert can be acknowledged`);
    const next = await saveVersion(writer(ctx), alerts, row, { status: "acknowledged", acknowledgedAt: ctx.nowIso, acknowledgedBy: ctx.actorId }, ctx.nowIso);
    await alertChanged(ctx, next);
    return toAlertDto(next);
  });
}

// ---------------------------------------------------------------- conditions

/** Every alert condition that holds at the context's time. */
export async function currentConditions(ctx: TenantCtx): Promise<AlertCondition[]> {
  const w = windowOf(ctx);
  const out: AlertCondition[] = [];
  for (const source of CONDITION_SOURCES) out.push(...(await source(ctx, w)));
  return out;
}

/** The times the conditions are measured against. */
interface AlertWindow {
  nowIso: string;
  /** A checkout or audit due before this is due soon. */
  soon: string;
  today: string;
  /** The last day an ending agreement is reported for (ALERT_HORIZON_DAYS). */
  horizon: string;
}

function windowOf(ctx: TenantCtx): AlertWindow {
  return {
    nowIso: ctx.nowIso,
    soon: new Date(ctx.now.getTime() + DUE_SOON_MS).toISOString(),
    today: ctx.nowIso.slice(0, 10),
    horizon: new Date(ctx.now.getTime() + ctx.deps.config.alertHorizonDays * DAY_MS).toISOString().slice(0, 10),
  };
}

/** Checkouts: due within a day, or overdue (checkouts_due_idx: state, due_at). */
async function checkoutConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const open = await db(ctx)
    .select({ id: checkouts.id, itemId: checkouts.itemId, dueAt: checkouts.dueAt, holderKind: checkouts.holderKind, holderId: checkouts.holderId })
    .from(checkouts)
    .where(and(eq(checkouts.state, "checked_out"), isNotNull(checkouts.dueAt), lte(checkouts.dueAt, w.soon)));
  return open.map((c) => ({
    kind: c.dueAt! < w.nowIso ? "checkout_overdue" : "checkout_due",
    subjectType: "checkout",
    subjectId: c.id,
    dueAt: c.dueAt,
    data: { itemId: c.itemId, holder: { kind: c.holderKind, id: c.holderId }, dueAt: c.dueAt },
  }));
}

/** Active agreements ending between today and the horizon (agreements_ends_idx). */
async function agreementConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const ending = await db(ctx)
    .select({ id: agreements.id, kind: agreements.kind, partyId: agreements.partyId, endsOn: agreements.endsOn, reference: agreements.reference })
    .from(agreements)
    .where(and(gte(agreements.endsOn, w.today), lte(agreements.endsOn, w.horizon), eq(agreements.status, "active")));
  return ending.map((a) => ({
    kind: "agreement_expiring",
    subjectType: "agreement",
    subjectId: a.id,
    dueAt: a.endsOn,
    data: { agreementKind: a.kind, partyId: a.partyId, reference: a.reference, endsOn: a.endsOn },
  }));
}

/** Assets in service whose warranty or lease ends within the horizon. */
async function warrantyConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const covered = await db(ctx)
    .select({ itemId: items.id, name: items.name, agreementId: agreements.id, kind: agreements.kind, endsOn: agreements.endsOn })
    .from(agreements)
    .innerJoin(items, eq(items.agreementId, agreements.id))
    .where(
      and(
        gte(agreements.endsOn, w.today),
        lte(agreements.endsOn, w.horizon),
        eq(agreements.status, "active"),
        inArray(agreements.kind, ["warranty", "lease"]),
        notInArray(items.lifecycle, ["retired", "disposed", "consumed"]),
      ),
    );
  return covered.map((i) => ({
    kind: "asset_warranty_expiring",
    subjectType: "item",
    subjectId: i.itemId,
    dueAt: i.endsOn,
    data: { itemName: i.name, agreementId: i.agreementId, agreementKind: i.kind, endsOn: i.endsOn },
  }));
}

/** Audits not yet counted whose dueAt is within a day or past. */
async function auditConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const dueAudits = await db(ctx)
    .select({ id: audits.id, name: audits.name, status: audits.status, dueAt: audits.dueAt })
    .from(audits)
    .where(and(inArray(audits.status, ["planned", "counting"]), isNotNull(audits.dueAt), lte(audits.dueAt, w.soon)));
  return dueAudits.map((a) => ({ kind: "audit_due", subjectType: "audit", subjectId: a.id, dueAt: a.dueAt, data: { name: a.name, status: a.status, dueAt: a.dueAt } }));
}

/** Shipments on their way past their expected arrival. */
async function shipmentConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const late = await db(ctx)
    .select({ id: shipments.id, reference: shipments.reference, status: shipments.status, expectedArrivalAt: shipments.expectedArrivalAt })
    .from(shipments)
    .where(and(inArray(shipments.status, ["dispatched", "in_transit", "exception"]), isNotNull(shipments.expectedArrivalAt), sql`${shipments.expectedArrivalAt} < ${w.nowIso}`));
  return late.map((s) => ({
    kind: "shipment_delayed",
    subjectType: "shipment",
    subjectId: s.id,
    dueAt: s.expectedArrivalAt,
    data: { reference: s.reference, status: s.status, expectedArrivalAt: s.expectedArrivalAt },
  }));
}

/** Work orders still open past their dueAt. */
async function workOrderConditions(ctx: TenantCtx, w: AlertWindow): Promise<AlertCondition[]> {
  const overdue = await db(ctx)
    .select({ id: workOrders.id, itemId: workOrders.itemId, title: workOrders.title, status: workOrders.status, dueAt: workOrders.dueAt })
    .from(workOrders)
    .where(and(inArray(workOrders.status, ["open", "in_progress", "paused"]), isNotNull(workOrders.dueAt), sql`${workOrders.dueAt} < ${w.nowIso}`));
  return overdue.map((o) => ({
    kind: "work_order_overdue",
    subjectType: "work_order",
    subjectId: o.id,
    dueAt: o.dueAt,
    data: { itemId: o.itemId, title: o.title, status: o.status, dueAt: o.dueAt },
  }));
}

/** Webhook endpoints the delivery job disabled after 5 days of failures (until re-enabled). */
async function webhookConditions(ctx: TenantCtx): Promise<AlertCondition[]> {
  const failing = await db(ctx)
    .select({ id: webhookEndpoints.id, disabledAt: webhookEndpoints.disabledAt, failingSince: webhookEndpoints.failingSince })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, false), eq(webhookEndpoints.disabledReason, "failing")));
  return failing.map((e) => webhookFailingCondition(e.id, e.disabledAt, e.failingSince));
}

/** Read one after the other, in this order (the job raises them in it). */
const CONDITION_SOURCES: ReadonlyArray<(ctx: TenantCtx, w: AlertWindow) => Promise<AlertCondition[]>> = [
  checkoutConditions,
  agreementConditions,
  warrantyConditions,
  auditConditions,
  shipmentConditions,
  workOrderConditions,
  webhookConditions,
];

export function webhookFailingCondition(endpointId: string, disabledAt: string | null, failingSince: string | null): AlertCondition {
  return { kind: "webhook_failing", subjectType: "webhook", subjectId: endpointId, dueAt: disabledAt, data: { failingSince, disabledAt } };
}

// ---------------------------------------------------------------- materialising

/**
 * Inserts the alert of a condition in the open transaction, or reopens the resolved
 * alert of the same fingerprint; an unresolved one is left as it is. Returns whether
 * a row was created or reopened.
 */
export async function raiseAlert(ctx: TenantCtx, c: AlertCondition): Promise<boolean> {
  const r = await writer(ctx)
    .insert(alerts)
    .values({
      id: ctx.deps.newId(),
      fingerprint: fingerprintOf(c),
      kind: c.kind,
      status: "open",
      subjectType: c.subjectType,
      subjectId: c.subjectId,
      dueAt: c.dueAt,
      data: c.data,
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      version: 1,
      createdAt: ctx.nowIso,
      updatedAt: ctx.nowIso,
      createdBy: ctx.actorId,
    })
    .onConflictDoUpdate({
      target: alerts.fingerprint,
      set: { status: "open", resolvedAt: null, acknowledgedAt: null, acknowledgedBy: null, version: sql`${alerts.version} + 1`, updatedAt: ctx.nowIso },
      setWhere: eq(alerts.status, "resolved"),
    })
    .returning({ id: alerts.id });
  for (const { id } of r) await alertChanged(ctx, { id, kind: c.kind, status: "open" });
  return r.length > 0;
}

/** The live streams' `alert.changed` event (raised, reopened, acknowledged, resolved), in the change's transaction. */
async function alertChanged(ctx: TenantCtx, a: { id: string; kind: string; status: string }): Promise<void> {
  await appendOutboxEvent(ctx, { kind: "alert.changed", aggregateId: a.id, occurredAt: ctx.nowIso, data: { alertId: a.id, kind: a.kind, status: a.status } });
}

export interface MaterialiseResult {
  raised: number;
  resolved: number;
}

/**
 * The alerts job's probe (reads only: the pass's own reads, without its transactions): now
 * when the pass would raise or resolve an alert; otherwise the next time the conditions can
 * change by the clock alone (a checkout or audit becoming due soon, a checkout becoming
 * overdue, a shipment or work order becoming late, the next UTC day for agreements in or
 * before the horizon), or null when nothing dated can change.
 */
export async function alertsDueAt(ctx: TenantCtx): Promise<string | null> {
  const unresolved = await db(ctx)
    .select({ fingerprint: alerts.fingerprint })
    .from(alerts)
    .where(inArray(alerts.status, ["open", "acknowledged"]));
  const wanted = new Set((await currentConditions(ctx)).map(fingerprintOf));
  const have = new Set(unresolved.map((a) => a.fingerprint));
  for (const fp of wanted) if (!have.has(fp)) return ctx.nowIso;
  for (const fp of have) if (!wanted.has(fp)) return ctx.nowIso;
  return nextConditionChange(ctx);
}

/** The earliest time a condition appears, changes kind or clears by the clock alone (see alertsDueAt). */
async function nextConditionChange(ctx: TenantCtx): Promise<string | null> {
  const w = windowOf(ctx);
  const q = db(ctx);
  const at = (iso: string | null | undefined, shiftMs: number) => (iso ? new Date(Date.parse(iso) + shiftMs).toISOString() : null);
  const minOf = async (rows: Promise<Array<{ m: string | null }>>) => (await rows)[0]?.m ?? null;
  const times: Array<string | null> = [];
  const openCheckouts = and(eq(checkouts.state, "checked_out"), isNotNull(checkouts.dueAt));
  times.push(at(await minOf(q.select({ m: sql<string | null>`min(${checkouts.dueAt})` }).from(checkouts).where(and(openCheckouts, gt(checkouts.dueAt, w.soon)))), -DUE_SOON_MS));
  times.push(at(await minOf(q.select({ m: sql<string | null>`min(${checkouts.dueAt})` }).from(checkouts).where(and(openCheckouts, gte(checkouts.dueAt, w.nowIso)))), 1));
  const openAudits = and(inArray(audits.status, ["planned", "counting"]), isNotNull(audits.dueAt), gt(audits.dueAt, w.soon));
  times.push(at(await minOf(q.select({ m: sql<string | null>`min(${audits.dueAt})` }).from(audits).where(openAudits)), -DUE_SOON_MS));
  const travelling = and(inArray(shipments.status, ["dispatched", "in_transit", "exception"]), isNotNull(shipments.expectedArrivalAt), gte(shipments.expectedArrivalAt, w.nowIso));
  times.push(at(await minOf(q.select({ m: sql<string | null>`min(${shipments.expectedArrivalAt})` }).from(shipments).where(travelling)), 1));
  const working = and(inArray(workOrders.status, ["open", "in_progress", "paused"]), isNotNull(workOrders.dueAt), gte(workOrders.dueAt, w.nowIso));
  times.push(at(await minOf(q.select({ m: sql<string | null>`min(${workOrders.dueAt})` }).from(workOrders).where(working)), 1));
  // Agreements enter the horizon and leave it by the UTC date: the next day boundary, while any active one has not ended.
  const dated = await q.select({ id: agreements.id }).from(agreements).where(and(eq(agreements.status, "active"), gte(agreements.endsOn, w.today))).limit(1);
  if (dated.length > 0) times.push(new Date(Date.parse(`${w.today}T00:00:00.000Z`) + DAY_MS).toISOString());
  const due = times.filter((t): t is string => t !== null).sort();
  return due[0] ?? null;
}

/** One pass of the alerts job: raise what holds, resolve what cleared. Rerunning it changes nothing. */
export async function materialiseAlerts(ctx: TenantCtx): Promise<MaterialiseResult> {
  // Unresolved alerts first: one raised meanwhile (the delivery job's webhook_failing) is then never resolved by this pass.
  const unresolved = await db(ctx)
    .select({ id: alerts.id, fingerprint: alerts.fingerprint })
    .from(alerts)
    .where(inArray(alerts.status, ["open", "acknowledged"]));
  const conditions = await currentConditions(ctx);
  const wanted = new Map(conditions.map((c) => [fingerprintOf(c), c]));
  const have = new Set(unresolved.map((a) => a.fingerprint));

  const toRaise = [...wanted].filter(([fp]) => !have.has(fp)).map(([, c]) => c);
  const toResolve = unresolved.filter((a) => !wanted.has(a.fingerprint)).map((a) => a.id);

  let raised = 0;
  for (let i = 0; i < toRaise.length; i += CHUNK) {
    const chunk = toRaise.slice(i, i + CHUNK);
    raised += await withTx(ctx, async (ctx) => {
      let n = 0;
      for (const c of chunk) if (await raiseAlert(ctx, c)) n++;
      return n;
    });
  }
  let resolved = 0;
  for (let i = 0; i < toResolve.length; i += CHUNK) {
    const ids = toResolve.slice(i, i + CHUNK);
    resolved += await withTx(ctx, async (ctx) => {
      const r = await writer(ctx)
        .update(alerts)
        .set({ status: "resolved", resolvedAt: ctx.nowIso, version: sql`${alerts.version} + 1`, updatedAt: ctx.nowIso })
        // Re-checked in the transaction: a concurrent pass may have resolved it already.
        .where(and(inArray(alerts.id, ids), inArray(alerts.status, ["open", "acknowledged"])))
        .returning({ id: alerts.id, kind: alerts.kind });
      for (const a of r) await alertChanged(ctx, { id: a.id, kind: a.kind, status: "resolved" });
      return r.length;
    });
  }
  return { raised, resolved };
}
