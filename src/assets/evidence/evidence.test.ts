// Evidence told as stories: a delivery note (PDF) is uploaded against an item into an
// S3-compatible store (s3rver on loopback), stays locked until scanned and reviewed by
// someone else, then reads back byte-identical; restricted evidence is invisible
// without ams_admin; a "PNG" that is an executable and an EICAR file are quarantined
// by the scan job; uploads are limited, validated and idempotent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { assertDeclaredResponse, createTestEnv, MutableClock } from "../../../test/harness.ts";
import { DirectoryContentStore, type ContentStore } from "../../platform/blobs/content-store.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { EICAR, startFakeClamd, type FakeClamd } from "../../../test/fakes/fake-clamd.ts";
import { readAll } from "../../platform/blobs/test-helpers.ts";
import { runJob } from "../../jobs/run-job.ts";
import { evidenceScanJob } from "../../jobs/evidence-scan.job.ts";
import { evidence, evidenceEvents } from "./evidence.tables.ts";

// ------------------------------------------------------------------ helpers

interface UploadInput {
  bytes: Uint8Array;
  fileName?: string;
  type?: string;
  fields?: Record<string, string>;
  /** Raw extra parts appended after the fields. */
  extraParts?: string[];
  /** Send no file part. */
  noFile?: boolean;
  /** Send the fields after the file part instead of before it. */
  fieldsAfterFile?: boolean;
}

const BOUNDARY = "----evidence-test-7MA4YWxkTrZu0gW";

function multipartBody(input: UploadInput): Buffer {
  const parts: Buffer[] = [];
  const fieldParts = Object.entries(input.fields ?? {}).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (!input.fieldsAfterFile) parts.push(...fieldParts);
  for (const raw of input.extraParts ?? []) parts.push(Buffer.from(`--${BOUNDARY}\r\n${raw}\r\n`));
  if (!input.noFile) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${input.fileName ?? "note.pdf"}"\r\nContent-Type: ${input.type ?? "application/pdf"}\r\n\r\n`,
      ),
      Buffer.from(input.bytes),
      Buffer.from("\r\n"),
    );
  }
  if (input.fieldsAfterFile) parts.push(...fieldParts);
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/** The body as a stream of small odd-sized chunks, as a slow network would deliver it. */
function chunked(body: Buffer, size = 997): ReadableStream<Uint8Array> {
  let off = 0;
  return new ReadableStream({
    pull(c) {
      if (off >= body.length) return c.close();
      c.enqueue(new Uint8Array(body.subarray(off, off + size)));
      off += size;
    },
  });
}

interface Sent {
  status: number;
  headers: Headers;
  body: any;
}

async function upload(kit: Kit, user: string, input: UploadInput, opts: { idem?: string; contentType?: string } = {}): Promise<Sent> {
  const url = kit.url("/evidence");
  const res = await kit.env.app.fetch(
    new Request(`http://test.local${url}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await kit.env.token(user)}`,
        "idempotency-key": opts.idem ?? `up-${Math.random().toString(36).slice(2)}`,
        "content-type": opts.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: chunked(multipartBody(input)),
      duplex: "half",
    } as RequestInit),
  );
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  if ((res.headers.get("content-type") ?? "").startsWith("application/json")) assertDeclaredResponse("POST", url, res.status, body);
  return { status: res.status, headers: res.headers, body };
}

async function download(kit: Kit, user: string, id: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array; json?: any }> {
  const res = await kit.env.app.fetch(
    new Request(`http://test.local${kit.url(`/evidence/${id}/content`)}`, { headers: { authorization: `Bearer ${await kit.env.token(user)}` } }),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  const json = (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(Buffer.from(bytes).toString("utf8")) : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** A small but real PDF with a distinctive text run. */
function pdfBytes(marker: string): Buffer {
  const filler = Array.from({ length: 200 }, (_, i) => `Delivery line ${i}: ${marker} pallet ${i * 7} received in good order.`).join("\n");
  return Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\nstream\n${filler}\nendstream\n%%EOF\n`);
}

/** True if any `window`-byte run of `needle` appears in `hay`. */
function sharesRun(hay: Uint8Array, needle: Uint8Array, window = 16): boolean {
  const h = Buffer.from(hay);
  for (let i = 0; i + window <= needle.length; i += 4) if (h.includes(Buffer.from(needle.subarray(i, i + window)))) return true;
  return false;
}

const rowOf = (kit: Kit, id: string) => kit.read(async (q) => (await q.select().from(evidence).where(eq(evidence.id, id)))[0]!);
const eventsOf = (kit: Kit, id: string) =>
  kit.read((q) => q.select().from(evidenceEvents).where(eq(evidenceEvents.evidenceId, id)).orderBy(asc(evidenceEvents.recordedAt), asc(evidenceEvents.id)));

async function scan(kit: Kit) {
  const [outcome] = await runJob(kit.env.deps, evidenceScanJob, { partnerId: kit.partnerId });
  expect(outcome?.status).toBe("succeeded");
  return outcome!;
}

/** Nothing in a response may name where or how the bytes are stored. */
function expectNoStorageDetails(body: unknown, ...secrets: string[]) {
  const text = JSON.stringify(body);
  for (const s of ["storageKey", "storage_key", "envelope", "wrappedKey", "kekId", "keyId", "bucket", "evidence/", ...secrets]) expect(text).not.toContain(s);
}

// ------------------------------------------------------------------ S3 backend (s3rver on loopback)

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;
const BUCKET = "evidence-bucket";

describe("with the S3 content store", () => {
  let s3dir: string;
  let server: S3rverInstance;
  let kit: Kit & { close(): void };
  const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));

  beforeAll(async () => {
    s3dir = await mkdtemp(join(tmpdir(), "evidence-s3-"));
    server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
    const addr = await server.run();
    kit = await partnerKit({
      clock,
      tickMs: 1000,
      users: { ops: "operator", boss: "manager", chief: "admin", viewer: "viewer" },
      envVars: {
        CONTENT_STORE: `s3://${BUCKET}/tenants`,
        S3_ENDPOINT: `http://127.0.0.1:${addr.port}`,
        S3_REGION: "us-east-1",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      },
    });
  });
  afterAll(async () => {
    kit.close();
    await server.close();
    await rm(s3dir, { recursive: true, force: true });
  });

  test("a PDF is locked until scanned and reviewed by another member, then streams back byte-identical", async () => {
    const item = await kit.seed.activeAsset();
    const pdf = pdfBytes("ACME-DELIVERY-NOTE-4711");

    const up = await upload(kit, "boss", { bytes: pdf, fileName: "delivery note.pdf", fields: { targetType: "item", targetId: item.id, classification: "private" } });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      targetType: "item",
      targetId: item.id,
      classification: "private",
      fileName: "delivery note.pdf",
      size: pdf.length,
      mediaType: "application/pdf",
      sniffedType: "application/pdf",
      sha256: sha256(pdf),
      scanState: "pending",
      scanned: false,
      createdBy: "boss",
      createdAt: clock.now().toISOString(),
    });
    expect(up.headers.get("location")).toBe(`/api/assets/evidence/${up.body.id}/content?partnerId=${kit.partnerId}`);
    expectNoStorageDetails(up.body, BUCKET, "127.0.0.1");
    const id = up.body.id as string;

    // Only ciphertext reached the store: same length plus the GCM tag, no 16-byte run of the file.
    const row = await rowOf(kit, id);
    const stored = await readAll((await kit.env.deps.contentStore.get(row.storageKey))!);
    expect(stored.length).toBe(pdf.length + 16);
    expect(sharesRun(stored, pdf)).toBe(false);
    expect(sharesRun(stored, Buffer.from("ACME-DELIVERY-NOTE-4711"), 12)).toBe(false);
    expect(row.keyId).toBe(row.envelope.kekId);

    // Locked while pending, for everyone.
    expectProblem(await download(kit, "chief", id).then((r) => ({ status: r.status, headers: r.headers, body: r.json })), 423, "evidence_locked");
    // A human cannot clear it before the automatic scan has run.
    const early = await kit.as("chief").post(`/evidence/${id}/review`, { decision: "clean" });
    expectProblem(early, 409, "state_conflict");
    expect(early.body.detail).toContain("pending");

    await scan(kit);
    const scanned = await rowOf(kit, id);
    expect(scanned.scanState).toBe("pending");
    expect(scanned.scannedAt).not.toBeNull();
    expectProblem(await download(kit, "boss", id).then((r) => ({ status: r.status, headers: r.headers, body: r.json })), 423, "evidence_locked");

    // The uploader cannot review their own file; an operator holds no ams_review.
    expectProblem(await kit.as("boss").post(`/evidence/${id}/review`, { decision: "clean" }), 403, "maker_cannot_decide");
    expectProblem(await kit.as("ops").post(`/evidence/${id}/review`, { decision: "clean" }), 403, "capability_denied");

    const reviewed = await kit.as("chief").post(`/evidence/${id}/review`, { decision: "clean", reason: "  matches the delivery  " });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ scanState: "clean", scanned: true, reviewedBy: "chief", reviewReason: "matches the delivery" });
    expectNoStorageDetails(reviewed.body, BUCKET);
    // Decided once: a second decision is a state conflict naming the state.
    const again = await kit.as("chief").post(`/evidence/${id}/review`, { decision: "quarantine" });
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("clean");

    const got = await download(kit, "viewer", id);
    expect(got.status).toBe(200);
    expect(Buffer.from(got.bytes).equals(pdf)).toBe(true);
    expect(sha256(got.bytes)).toBe(up.body.sha256);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="delivery note.pdf"; filename*=UTF-8''delivery%20note.pdf`);
    expect(got.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(pdf).digest("base64")}:`);
    for (const [, v] of got.headers) expect(v).not.toContain(BUCKET);

    // Upload, scan, review and download are recorded with actor and server time.
    const events = await eventsOf(kit, id);
    expect(events.map((e) => [e.kind, e.actorId])).toEqual([
      ["upload", "boss"],
      ["scan", "system"],
      ["review", "chief"],
      ["download", "viewer"],
    ]);
    expect(events[2]!.data).toMatchObject({ decision: "clean", from: "pending", to: "clean" });
  });

  test("restricted evidence: invisible without ams_admin, readable with it", async () => {
    const item = await kit.seed.activeAsset();
    const secret = await upload(kit, "chief", { bytes: pdfBytes("PERSONNEL-FILE"), fields: { targetType: "item", targetId: item.id, classification: "restricted" } });
    expect(secret.status).toBe(201);
    const open = await upload(kit, "chief", { bytes: pdfBytes("OPEN-FILE"), fields: { targetType: "item", targetId: item.id, classification: "internal" } });
    expect(open.status).toBe(201);

    const asManager = await kit.as("boss").get("/evidence", { query: { targetId: item.id } });
    expect(asManager.status).toBe(200);
    expect(asManager.body.items.map((e: any) => e.id)).toEqual([open.body.id]);
    expect(asManager.body.total).toBe(1);
    const filtered = await kit.as("boss").get("/evidence", { query: { classification: "restricted" } });
    expect(filtered.body).toMatchObject({ items: [], total: 0, filters: { classification: ["restricted"] } });
    expectProblem(await download(kit, "boss", secret.body.id).then((r) => ({ status: r.status, headers: r.headers, body: r.json })), 404, "not_found");
    expectProblem(await kit.as("boss").post(`/evidence/${secret.body.id}/review`, { decision: "quarantine" }), 404, "not_found");

    const asAdmin = await kit.as("chief").get("/evidence", { query: { targetId: item.id } });
    expect(asAdmin.body.items.map((e: any) => e.id)).toEqual([open.body.id, secret.body.id]);
    expect(asAdmin.body.total).toBe(2);
    for (const e of asAdmin.body.items) expectNoStorageDetails(e, BUCKET);
  });
});

// ------------------------------------------------------------------ scan findings (directory store)

describe("the scan job", () => {
  let kit: Kit & { close(): void };
  let clamd: FakeClamd;
  let itemId: string;

  beforeAll(async () => {
    clamd = await startFakeClamd();
    kit = await partnerKit({
      users: { ops: "operator", boss: "manager", chief: "admin" },
      envVars: { CLAMD_HOST: clamd.host, CLAMD_PORT: String(clamd.port) },
    });
    itemId = (await kit.seed.activeAsset()).id;
  });
  afterAll(async () => {
    kit.close();
    await clamd.close();
  });

  test("a file declared image/png whose bytes are an executable is quarantined", async () => {
    const exe = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"), randomBytes(4000)]);
    const up = await upload(kit, "ops", { bytes: exe, fileName: "photo.png", type: "image/png", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ mediaType: "image/png", sniffedType: "application/x-msdownload", scanState: "pending" });

    await scan(kit);
    const [listed] = (await kit.get("/evidence", { query: { scanState: "quarantined" } })).body.items;
    expect(listed).toMatchObject({ id: up.body.id, scanState: "quarantined", scanned: true });
    expect(listed.scanFinding).toContain("executable");
    expectProblem(await download(kit, "chief", up.body.id).then((r) => ({ status: r.status, headers: r.headers, body: r.json })), 423, "evidence_locked");
    // Quarantine is final.
    expectProblem(await kit.as("boss").post(`/evidence/${up.body.id}/review`, { decision: "clean" }), 409, "state_conflict");
  });

  test("a real PNG declared as a PDF is a mismatch too; a matching PNG passes to review", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)]);
    const wrong = await upload(kit, "ops", { bytes: png, type: "application/pdf", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    const right = await upload(kit, "ops", { bytes: png, fileName: "p.png", type: "image/png", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    await scan(kit);
    expect((await rowOf(kit, wrong.body.id)).scanState).toBe("quarantined");
    expect((await rowOf(kit, right.body.id))).toMatchObject({ scanState: "pending", scanFinding: null });
  });

  test("clamd (a loopback fake speaking INSTREAM) quarantines the EICAR test file and passes a clean one", async () => {
    const before = clamd.scans.length;
    const eicar = await upload(kit, "ops", { bytes: Buffer.from(EICAR), fileName: "eicar.txt", type: "text/plain", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    const big = Buffer.from("inspection log line\n".repeat(20_000)); // 400 kB: several INSTREAM chunks
    const clean = await upload(kit, "ops", { bytes: big, fileName: "log.txt", type: "text/plain", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    expect(eicar.status).toBe(201);
    await scan(kit);

    const quarantined = await rowOf(kit, eicar.body.id);
    expect(quarantined.scanState).toBe("quarantined");
    expect(quarantined.scanFinding).toContain("Eicar-Signature");
    expect(await rowOf(kit, clean.body.id)).toMatchObject({ scanState: "pending", scanFinding: null });
    // Every byte went to clamd, in length-prefixed chunks.
    const seen = clamd.scans.slice(before).map((s) => s.bytes);
    expect(seen).toContain(EICAR.length);
    expect(seen).toContain(big.length);
    expect(clamd.scans.slice(before).find((s) => s.bytes === big.length)!.chunks).toBeGreaterThan(1);
    const events = await eventsOf(kit, eicar.body.id);
    expect(events.at(-1)).toMatchObject({ kind: "scan", actorId: "system", data: { outcome: "quarantined", clamd: true } });

    // Cleared by a reviewer, the clean file streams back.
    expect((await kit.as("boss").post(`/evidence/${clean.body.id}/review`, { decision: "clean" })).status).toBe(200);
    const got = await download(kit, "ops", clean.body.id);
    expect(Buffer.from(got.bytes).equals(big)).toBe(true);
  });

  test("a scanner error marks the file failed", async () => {
    clamd.mode = "error";
    try {
      const up = await upload(kit, "ops", { bytes: Buffer.from("plain notes\n"), fileName: "n.txt", type: "text/plain", fields: { targetType: "item", targetId: itemId, classification: "internal" } });
      await scan(kit);
      const row = await rowOf(kit, up.body.id);
      expect(row.scanState).toBe("failed");
      expect(row.scanFinding).toContain("ERROR");
      expectProblem(await kit.as("boss").post(`/evidence/${up.body.id}/review`, { decision: "clean" }), 409, "state_conflict");
    } finally {
      clamd.mode = "scan";
    }
  });

  test("a stored blob that was tampered with fails its integrity check", async () => {
    const up = await upload(kit, "ops", { bytes: pdfBytes("TAMPER"), fields: { targetType: "item", targetId: itemId, classification: "internal" } });
    const row = await rowOf(kit, up.body.id);
    const stored = await readAll((await kit.env.deps.contentStore.get(row.storageKey))!);
    stored[100] = stored[100]! ^ 1;
    await kit.env.deps.contentStore.put(row.storageKey, stored);
    await scan(kit);
    expect((await rowOf(kit, up.body.id)).scanState).toBe("failed");
  });

  const realClamd = process.env.CLAMD_HOST;
  test.skipIf(!realClamd)("a real clamd (CLAMD_HOST) quarantines the EICAR test file", async () => {
    const env = await partnerKit({ partnerId: "real-clamd", users: { ops: "operator" }, envVars: { CLAMD_HOST: realClamd!, CLAMD_PORT: process.env.CLAMD_PORT ?? "3310" } });
    try {
      const item = await env.seed.activeAsset();
      const up = await upload(env, "ops", { bytes: Buffer.from(EICAR), fileName: "eicar.txt", type: "text/plain", fields: { targetType: "item", targetId: item.id, classification: "internal" } });
      await scan(env);
      const row = await rowOf(env, up.body.id);
      expect(row.scanState).toBe("quarantined");
      expect(row.scanFinding).toMatch(/eicar/i);
    } finally {
      env.close();
    }
  });
  if (!realClamd) console.log("evidence: real-clamd EICAR case skipped: no clamd installed here (set CLAMD_HOST/CLAMD_PORT to run it); the fake clamd case covers the quarantine path");
});

// ------------------------------------------------------------------ input, limits, targets, idempotency

describe("uploads are checked", () => {
  let kit: Kit & { close(): void };
  let itemId: string;
  const blobDir = () => join(kit.env.dir, ".blobs");
  const storedBlobs = async () => {
    const walk = async (d: string): Promise<string[]> => {
      const out: string[] = [];
      for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
        if (e.name.startsWith(".")) continue;
        if (e.isDirectory()) out.push(...(await walk(join(d, e.name))));
        else out.push(e.name);
      }
      return out;
    };
    return walk(blobDir());
  };

  beforeAll(async () => {
    kit = await partnerKit({ users: { ops: "operator", boss: "manager", viewer: "viewer" }, envVars: { EVIDENCE_MAX_BYTES: "4096" } });
    itemId = (await kit.seed.activeAsset()).id;
  });
  afterAll(() => kit.close());
  const fields = () => ({ targetType: "item", targetId: itemId, classification: "internal" });

  test("beyond EVIDENCE_MAX_BYTES the upload is 413 and nothing stays stored", async () => {
    const before = await storedBlobs();
    const res = await upload(kit, "ops", { bytes: randomBytes(5000), fields: fields() });
    expectProblem({ ...res }, 413, "payload_too_large");
    expect(await storedBlobs()).toEqual(before);
    const ok = await upload(kit, "ops", { bytes: Buffer.concat([Buffer.from("%PDF-"), randomBytes(4091)]), fields: fields() });
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(4096);
  });

  test("the form is strict: file, fields, types and the target", async () => {
    const pdf = pdfBytes("x").subarray(0, 2000);
    const before = await storedBlobs();
    expectFieldError(await upload(kit, "ops", { bytes: pdf, noFile: true, fields: fields() }), "/body/file");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "planet" } }), "/body/targetType");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { targetType: "item", targetId: itemId } }), "/body/classification");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), ownerId: "ops" } }), "/body/ownerId");
    expectFieldError(await upload(kit, "ops", { bytes: new Uint8Array(), fields: fields() }), "/body/file");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: fields(), extraParts: ['Content-Disposition: form-data; name="file"; filename="two.pdf"\r\n\r\nsecond'] }), "/body/file");
    // Unknown targets, checked through their own domains.
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetId: "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f" } }), "/body/targetId");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "shipment" } }), "/body/targetId");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "work_order" } }), "/body/targetId");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "workflow_case" } }), "/body/targetId");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "audit_result" } }), "/body/targetId");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: { ...fields(), targetType: "value_entry" } }), "/body/targetId");
    // Not multipart at all.
    const json = await kit.post("/evidence", { targetType: "item" });
    expectFieldError(json, "/body");
    expectFieldError(await upload(kit, "ops", { bytes: pdf, fields: fields() }, { contentType: "multipart/form-data" }), "/body");
    // Capability: a viewer may not upload.
    expectProblem(await upload(kit, "viewer", { bytes: pdf, fields: fields() }), 403, "capability_denied");
    // None of the refused uploads left a blob behind.
    expect(await storedBlobs()).toEqual(before);
    expect(await kit.read((q) => q.select().from(evidence))).toHaveLength(1); // the one from the size test
  });

  test("restricted evidence needs ams_admin to upload: 403 before anything is kept, the field before or after the file", async () => {
    const pdf = pdfBytes("PERSONNEL-FILE").subarray(0, 2000);
    const before = await storedBlobs();
    const rowsBefore = (await kit.read((q) => q.select().from(evidence))).length;
    for (const user of ["ops", "boss"]) {
      for (const fieldsAfterFile of [false, true]) {
        const res = await upload(kit, user, { bytes: pdf, fields: { ...fields(), classification: "restricted" }, fieldsAfterFile });
        expectProblem(res, 403, "capability_denied", `${user}, fields ${fieldsAfterFile ? "after" : "before"} the file`);
        expect(res.body.detail).toContain("ams_admin");
      }
    }
    // Nothing in the store, nothing in the database.
    expect(await storedBlobs()).toEqual(before);
    expect(await kit.read((q) => q.select().from(evidence))).toHaveLength(rowsBefore);
    // The same members may still upload internal evidence.
    expect((await upload(kit, "ops", { bytes: pdf, fields: fields(), fieldsAfterFile: true })).status).toBe(201);
    expect(await storedBlobs()).toHaveLength(before.length + 1);
  });

  test("evidence on a checkout", async () => {
    const item = await kit.seed.activeAsset();
    const checkout = await kit.seed.checkout({ itemId: item.id });
    const up = await upload(kit, "ops", { bytes: pdfBytes("handover"), fileName: "handover.pdf", fields: { targetType: "checkout", targetId: checkout.id, classification: "internal" } });
    // Larger than the 4 KiB limit of this partner: the limit holds.
    expectProblem(up, 413, "payload_too_large");
    const small = await upload(kit, "ops", { bytes: Buffer.from("%PDF-1.4 handover"), fileName: "handover.pdf", fields: { targetType: "checkout", targetId: checkout.id, classification: "internal" } });
    expect(small.status).toBe(201);
    expect(small.body).toMatchObject({ targetType: "checkout", targetId: checkout.id });
    const listed = await kit.get("/evidence", { query: { targetType: "checkout", targetId: checkout.id } });
    expect(listed.body).toMatchObject({ total: 1, filters: { targetType: ["checkout"], targetId: checkout.id } });
  });

  test("a retried upload with the same Idempotency-Key is replayed, not stored twice", async () => {
    const bytes = Buffer.from("%PDF-1.4 retried upload");
    const count = async () => (await kit.read((q) => q.select().from(evidence))).length;
    const n = await count();
    const blobs = (await storedBlobs()).length;
    const first = await upload(kit, "ops", { bytes, fields: fields() }, { idem: "same-upload" });
    expect(first.status).toBe(201);
    const again = await upload(kit, "ops", { bytes, fields: fields() }, { idem: "same-upload" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await count()).toBe(n + 1);
    expect((await storedBlobs()).length).toBe(blobs + 1);
    // Same key, another file: refused.
    expectProblem(await upload(kit, "ops", { bytes: Buffer.from("%PDF-1.4 another"), fields: fields() }, { idem: "same-upload" }), 409, "idempotency_key_reuse");
    expect((await storedBlobs()).length).toBe(blobs + 1);
  });

  test("lists are newest first and page with a cursor", async () => {
    const all = (await kit.get("/evidence")).body;
    expect(all.total).toBeGreaterThanOrEqual(3);
    const created = all.items.map((e: any) => `${e.createdAt}|${e.id}`);
    expect([...created].sort().reverse()).toEqual(created);
    const first = await kit.get("/evidence", { query: { limit: 1 } });
    const second = await kit.get("/evidence", { query: { limit: 1, cursor: first.body.nextCursor } });
    expect(second.body.items[0].id).toBe(all.items[1].id);
    expectProblem(await kit.get("/evidence", { query: { scanState: "bogus" } }), 400, "validation_failed");
  });
});

describe("a refused restricted upload", () => {
  test("sent with its classification before the file, never writes a byte to the content store", async () => {
    // The real directory store, observed: every put is noted before it is passed on.
    const dir = await mkdtemp(join(tmpdir(), "evidence-puts-"));
    const real = new DirectoryContentStore(dir);
    const puts: string[] = [];
    const observed: ContentStore = {
      put: (key, body, opts) => (puts.push(key), real.put(key, body, opts)),
      get: (key) => real.get(key),
      delete: (key) => real.delete(key),
      exists: (key) => real.exists(key),
    };
    const env = await createTestEnv({}, { contentStore: observed });
    const kit = await partnerKit({ env, users: { chief: "admin", ops: "operator" } });
    try {
      const item = await kit.seed.activeAsset();
      const fields = { targetType: "item", targetId: item.id, classification: "restricted" };
      expectProblem(await upload(kit, "ops", { bytes: pdfBytes("HR-CASE"), fields }), 403, "capability_denied");
      expect(puts).toEqual([]);
      // Sent after the file, it is refused too; the stored blob is discarded.
      expectProblem(await upload(kit, "ops", { bytes: pdfBytes("HR-CASE"), fields, fieldsAfterFile: true }), 403, "capability_denied");
      expect(puts).toHaveLength(1);
      expect(await real.exists(puts[0]!)).toBe(false);
      // An administrator uploads it.
      expect((await upload(kit, "chief", { bytes: pdfBytes("HR-CASE"), fields })).status).toBe(201);
      expect(puts).toHaveLength(2);
    } finally {
      env.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("evidence on an audit result and on a finance value entry", () => {
  let kit: Kit & { close(): void };
  beforeAll(async () => {
    kit = await partnerKit({ users: { ops: "operator", mgr: "manager", boss: "admin" } });
  });
  afterAll(() => kit.close());
  const note = (targetType: string, targetId: string) => ({ targetType, targetId, classification: "internal" });

  test("a photo of a missing laptop is bound to its audit result; another id of the audit is not a result", async () => {
    const room = await kit.seed.location({ name: "Room 12", kind: "room" });
    await kit.seed.activeAsset({ name: "Laptop", locationId: room.id });
    const audit = await kit.as("ops").create("/audits", { name: "Room 12 check", locationIds: [room.id] });
    expect((await kit.as("ops").post(`/audits/${audit.id}/start`, { expectedVersion: 1 })).status).toBe(200);
    const [result] = (await kit.get(`/audits/${audit.id}/results`)).body.items;
    expect(result).toMatchObject({ kind: "missing" });

    const up = await upload(kit, "ops", { bytes: pdfBytes("empty desk"), fileName: "desk.pdf", fields: note("audit_result", result.id) });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ targetType: "audit_result", targetId: result.id, scanState: "pending" });
    const listed = await kit.get("/evidence", { query: { targetType: "audit_result", targetId: result.id } });
    expect(listed.body.items.map((e: any) => e.id)).toEqual([up.body.id]);
    // The audit itself is not an audit result.
    expectFieldError(await upload(kit, "ops", { bytes: pdfBytes("x"), fields: note("audit_result", audit.id) }), "/body/targetId");
  });

  test("an invoice is bound to an approved acquisition entry; the proposal's case id is not an entry", async () => {
    const boss = kit.as("boss");
    const mgr = kit.as("mgr");
    const policy = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
    expect((await mgr.post(`/policies/${policy.id}/submit`, { revision: 1 })).status).toBe(200);
    expect((await boss.post(`/policies/${policy.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
    const book = await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: policy.id });
    const period = await boss.create("/finance/periods", { bookId: book.id, name: "jan", startsOn: "2026-01-01", endsOn: "2026-01-31" });
    const item = await kit.seed.activeAsset({ name: "Forklift" });
    const proposed = await mgr.create("/finance/value-entries", {
      bookId: book.id, periodId: period.id, policyId: policy.id, itemId: item.id, kind: "acquisition", debit: { amount: "12000.00", currency: "EUR" }, valueDate: "2026-01-05", reason: "bought",
    });
    const decided = await boss.post(`/workflow-cases/${proposed.id}/decision`, { decision: "approve", reason: "invoice checked", expectedVersion: 1 });
    expect(decided.status).toBe(200);
    const entryId: string = decided.body.applicationReceipt.records[0].recordId;

    const up = await upload(kit, "mgr", { bytes: pdfBytes("invoice 4711"), fileName: "invoice.pdf", fields: note("value_entry", entryId) });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ targetType: "value_entry", targetId: entryId });
    expectFieldError(await upload(kit, "mgr", { bytes: pdfBytes("x"), fields: note("value_entry", proposed.id) }), "/body/targetId");
  });
});
