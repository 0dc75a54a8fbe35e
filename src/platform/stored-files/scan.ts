// The scan pass over stored files (the `scans` job): each pending, unscanned file is
// decrypted from the content store (which also verifies its GCM tag), its first
// bytes sniffed against the declared type and, when CLAMD_HOST is set, its plaintext
// streamed to clamd (INSTREAM). A finding quarantines, a scanner error fails, and a
// file with neither stays pending, scanned, for a reviewer; a store outage leaves it
// queued for the next run.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Querier } from "../db/database.ts";
import { db, withTx, writer, type TxCtx } from "../db/transactions.ts";
import { decryptStream } from "../crypto/envelope.ts";
import { ContentStoreError } from "../blobs/content-store.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { ScannedFileRow } from "./columns.ts";
import { scanWithClamd, ScannerError, type ClamdVerdict } from "./clamd.ts";
import { SNIFF_BYTES, sniffingTap, typeMismatch } from "./sniff.ts";
import { mayMoveScanState } from "./states.ts";
import type { FileTable, StoredFileKind } from "./stored-files.ts";
import { blobAad } from "./upload.ts";

/** A table the scan pass queues: the scanned-file columns (scannedFileColumns). */
export type ScannedTable = FileTable & { scannedAt: SQLiteColumn; createdAt: SQLiteColumn };

export interface ScanOutcome {
  scanState: "pending" | "quarantined" | "failed";
  sniffedType?: string;
  finding?: string;
}

/**
 * Scans one file. A finding quarantines (once the sniffed head is complete), a
 * scanner error or a failed integrity check fails, and a file with neither stays
 * pending. A store outage throws (the file stays queued).
 */
async function scanOne(ctx: TenantCtx, kind: StoredFileKind, row: ScannedFileRow): Promise<ScanOutcome> {
  const blob = await ctx.deps.contentStore.get(row.storageKey);
  if (!blob) return { scanState: "failed", finding: "the stored content is missing" };
  let plaintext: ReadableStream<Uint8Array>;
  try {
    plaintext = decryptStream(ctx.deps.config.dataKek, row.envelope, blob, { aad: blobAad(kind.purpose, ctx.partnerId, row.id) });
  } catch (err) {
    void blob.cancel().catch(() => undefined);
    return { scanState: "failed", finding: `the stored content cannot be decrypted (${(err as Error).name})` };
  }
  const head = sniffingTap(plaintext);
  const clamd = ctx.deps.config.clamd;
  let verdict: ClamdVerdict = { clean: true };
  let scannerError: string | undefined;
  try {
    if (clamd) verdict = await scanWithClamd(clamd, head.stream());
    else for await (const _ of head.stream()) void _;
  } catch (err) {
    if (err instanceof ContentStoreError) throw err;
    scannerError = err instanceof ScannerError ? err.message : `the stored content failed its integrity check (${(err as Error).name})`;
  }
  const sniffedType = head.type();
  const findings = [typeMismatch(row.declaredType, sniffedType), verdict.clean ? undefined : `malware signature ${verdict.signature}`].filter(Boolean);
  if (findings.length > 0 && head.bytes >= Math.min(row.size, SNIFF_BYTES)) return { scanState: "quarantined", sniffedType, finding: findings.join("; ") };
  if (scannerError) return { scanState: "failed", sniffedType, finding: scannerError };
  return { scanState: "pending", sniffedType };
}

/**
 * One batch of the scan queue (pending files not yet scanned), oldest first; returns
 * how many were scanned. Each result is written in its own transaction, where
 * `recordScan` adds the domain's history; a reviewer's decision taken meanwhile is
 * kept (the scan is still recorded).
 */
export async function scanPendingFiles<T extends ScannedTable>(
  ctx: TenantCtx,
  kind: StoredFileKind<T>,
  limit: number,
  recordScan: (ctx: TxCtx, row: ScannedFileRow, outcome: ScanOutcome) => Promise<void>,
): Promise<number> {
  const { table } = kind;
  const queue = (await (db(ctx) as Querier<Record<string, never>>)
    .select()
    .from(table as SQLiteTable)
    .where(and(eq(table.scanState, "pending"), isNull(table.scannedAt)))
    .orderBy(asc(table.createdAt), asc(table.id))
    .limit(limit)) as ScannedFileRow[];
  let scanned = 0;
  for (const row of queue) {
    let outcome: ScanOutcome;
    try {
      outcome = await scanOne(ctx, kind, row);
    } catch (err) {
      // The store is unreachable: not the file's fault; it stays queued for the next run.
      ctx.deps.log.warn(`${kind.purpose} scan deferred`, { requestId: ctx.requestId, [`${kind.purpose}Id`]: row.id, error: (err as Error).name });
      continue;
    }
    await withTx(ctx, (ctx) => saveScan(ctx, kind, row.id, outcome, recordScan));
    scanned++;
  }
  return scanned;
}

async function saveScan(
  ctx: TxCtx,
  kind: StoredFileKind<ScannedTable>,
  id: string,
  outcome: ScanOutcome,
  recordScan: (ctx: TxCtx, row: ScannedFileRow, outcome: ScanOutcome) => Promise<void>,
): Promise<void> {
  const { table } = kind;
  const q = writer(ctx) as Querier<Record<string, never>>;
  const current = ((await q.select().from(table as SQLiteTable).where(eq(table.id, id))) as ScannedFileRow[])[0];
  if (!current) return;
  // A reviewer may have quarantined it meanwhile: the scan is recorded, the decision kept.
  const next = current.scanState === "pending" ? outcome.scanState : current.scanState;
  if (next !== current.scanState && !mayMoveScanState(current.scanState, next)) throw kind.notReviewable(current.scanState, next);
  await q
    .update(table as SQLiteTable)
    .set({
      scanState: next,
      scannedAt: ctx.nowIso,
      ...(outcome.sniffedType ? { sniffedType: outcome.sniffedType } : {}),
      ...(outcome.finding && next === outcome.scanState ? { scanFinding: outcome.finding } : {}),
      updatedAt: ctx.nowIso,
    } as never)
    .where(eq(table.id, id));
  await recordScan(ctx, current, outcome);
}
