// Project-level destinations (a team mailbox, a messenger group or channel):
// write-only. The target is sealed under the dm-locator purpose key (aad: the
// destination id) and only a masked form ever leaves the service.
import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta } from "../../platform/tenancy/tenant-context.ts";
import { requireProjectAccess, type ScopeCtx } from "../projects/index.ts";
import { recordAudit } from "../audit/index.ts";
import { discordSend, sendEmail, telegramSend } from "./notifications.providers.ts";
import { maskEmail, maskId, openLocator, sealLocator } from "./notifications.vault.ts";
import { planningDestinations, type DestinationKind } from "./notifications.tables.ts";
import type { CreateDestination } from "./notifications.schemas.ts";

type Row = typeof planningDestinations.$inferSelect;

export function toDestinationDto(r: Row) {
  return {
    id: r.id,
    projectId: r.projectId,
    kind: r.kind,
    name: r.name,
    target: r.targetMask,
    lastTestAt: r.lastTestAt,
    lastTestDisposition: r.lastTestDisposition,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[A-Za-z]{2,}$/;

/** The target in canonical form, or 400 at /body/target. */
function normaliseTarget(kind: DestinationKind, target: string): { value: string; mask: string } {
  switch (kind) {
    case "email":
      if (!EMAIL_RE.test(target)) throw invalid("/body/target", "must be an email address");
      return { value: target, mask: maskEmail(target) };
    case "messenger_a_group":
      if (!/^-?[0-9]{1,20}$/.test(target) && !/^@[A-Za-z][A-Za-z0-9_]{4,31}$/.test(target)) throw invalid("/body/target", "must be a chat id or an @channel username");
      return { value: target, mask: maskId("chat", target) };
    case "messenger_b_channel":
      if (!/^[0-9]{15,22}$/.test(target)) throw invalid("/body/target", "must be a channel id (a snowflake)");
      return { value: target, mask: maskId("channel", target) };
  }
}

export async function createDestination(ctx: ScopeCtx, projectId: string, input: z.output<typeof CreateDestination>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const t = normaliseTarget(input.kind, input.target);
    const meta = newRecordMeta(ctx);
    const row: Row = {
      ...meta,
      projectId,
      kind: input.kind,
      name: input.name,
      targetCipher: sealLocator(ctx, "dm-locator", meta.id, t.value),
      targetMask: t.mask,
      lastTestAt: null,
      lastTestDisposition: null,
    };
    await writer(ctx).insert(planningDestinations).values(row);
    await recordAudit(ctx, { projectId, recordType: "destination", recordId: row.id, action: "created", data: { kind: row.kind, name: row.name, target: row.targetMask } });
    return toDestinationDto(row);
  });
}

/** The destination of a project the caller may edit, or 404. */
async function loadDestination(ctx: ScopeCtx, projectId: string, destinationId: string): Promise<Row> {
  await requireProjectAccess(ctx, projectId, "edit", { anyState: true });
  const row = (await db(ctx).select().from(planningDestinations).where(eq(planningDestinations.id, destinationId)))[0];
  if (!row || row.projectId !== projectId) throw notFound("destination");
  return row;
}

/**
 * Sends a test message to the destination; the disposition is recorded on it (a
 * failed test is still 200). The send happens outside any transaction (the route is
 * `callsOutside`): a slow relay or messenger API holds no write lock of the partner.
 * The checks run on committed data first, and the outcome is recorded in a
 * transaction of its own afterwards (the checks again, then the new version).
 */
export async function testDestination(ctx: ScopeCtx, projectId: string, destinationId: string) {
  if (ctx.tx) throw new Error("testDestination sends outside a transaction: call it without one");
  const row = await loadDestination(ctx, projectId, destinationId);
  const target = openLocator(ctx, "dm-locator", row.id, row.targetCipher);
  const text = `Test message for destination "${row.name}": planning reminders can reach this destination.`;
  const out =
    row.kind === "email"
      ? await sendEmail(ctx.deps, target, "Planning destination test", text)
      : row.kind === "messenger_a_group"
        ? await telegramSend(ctx.deps, target, text)
        : await discordSend(ctx.deps, target, text);
  const disposition = out.ok ? "sent" : out.code;
  return withTx(ctx, async (ctx) => {
    // As it is now: access or the destination may have changed while the message was on its way.
    const current = await loadDestination(ctx, projectId, destinationId);
    const next = { ...current, lastTestAt: ctx.nowIso, lastTestDisposition: disposition, version: current.version + 1, updatedAt: ctx.nowIso };
    await writer(ctx).update(planningDestinations).set(next).where(eq(planningDestinations.id, current.id));
    await recordAudit(ctx, { projectId, recordType: "destination", recordId: current.id, action: "tested", data: { disposition } });
    return toDestinationDto(next);
  });
}
