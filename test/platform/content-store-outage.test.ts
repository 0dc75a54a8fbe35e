// When the S3 content store fails, uploads and downloads answer 503
// service_unavailable with Retry-After, never 500, and an upload leaves nothing
// behind: no record, no object, no multipart upload completed, no warning about a
// blob left behind. Told against s3rver on loopback, stopped before an upload and
// in the middle of a large (multipart) one, then started again on the same port:
// the same request with the same Idempotency-Key then succeeds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { expectProblem } from "../contract/helpers.ts";
import { partnerKit, type Kit } from "../kit.ts";
import type { CallResult } from "../harness.ts";
import { runJob } from "../../src/jobs/run-job.ts";
import { evidenceScanJob } from "../../src/jobs/evidence-scan.job.ts";
import { interopExportsJob } from "../../src/jobs/interop-exports.job.ts";
import { evidence, evidenceEvents } from "../../src/assets/evidence/evidence.tables.ts";
import { planningArtifacts } from "../../src/planning/artifacts/artifacts.tables.ts";
import { idempotencyKeys } from "../../src/platform/idempotency/idempotency.tables.ts";

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;
const BUCKET = "outage-bucket";

const s3dir = await mkdtemp(join(tmpdir(), "s3-outage-"));
let s3: S3rverInstance | undefined = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
const { port } = await s3.run();
const s3Env = { endpoint: `http://127.0.0.1:${port}`, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

async function stopS3(): Promise<void> {
  await s3?.close();
  s3 = undefined;
}
/** The same store again: same port, same directory (what it held before is still there). */
async function startS3(): Promise<void> {
  if (s3) return;
  s3 = new S3rver({ port, address: "127.0.0.1", silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
  await s3.run();
}

const kit: Kit & { close(): void } = await partnerKit({
  users: { boss: "manager", chief: "admin" },
  envVars: {
    CONTENT_STORE: `s3://${BUCKET}/blobs`,
    S3_ENDPOINT: s3Env.endpoint,
    S3_REGION: s3Env.region,
    S3_ACCESS_KEY_ID: s3Env.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3Env.secretAccessKey,
  },
});
let itemId = "";
beforeAll(async () => {
  itemId = (await kit.seed.activeAsset()).id;
});
afterAll(async () => {
  await startS3();
  kit.close();
  await stopS3();
  await rm(s3dir, { recursive: true, force: true });
});

/** Every object key in the bucket under a prefix (s3rver must be running). */
async function objectsUnder(prefix: string): Promise<string[]> {
  const raw = new Bun.S3Client({ ...s3Env, bucket: BUCKET });
  const listed = await raw.list({ prefix });
  return (listed.contents ?? []).map((o) => o.key).sort();
}

const BOUNDARY = "----outage-b0undary-4711";
function formHead(fields: Record<string, string>, fileName: string, type: string): Buffer {
  const parts = Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`);
  return Buffer.from(parts.join(""));
}
const formTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** A multipart body streamed in 256 KiB chunks; `pauseAt` holds it after that many file bytes until `resume`. */
function streamedForm(head: Buffer, file: Buffer, pauseAt?: { bytes: number; reached: () => void; resume: Promise<void> }): ReadableStream<Uint8Array> {
  const CHUNK = 256 * 1024;
  let sentHead = false;
  let off = 0;
  let paused = false;
  let sentTail = false;
  return new ReadableStream({
    async pull(c) {
      if (!sentHead) {
        sentHead = true;
        return c.enqueue(new Uint8Array(head));
      }
      if (pauseAt && !paused && off >= pauseAt.bytes) {
        paused = true;
        pauseAt.reached();
        await pauseAt.resume;
      }
      if (off < file.length) {
        c.enqueue(new Uint8Array(file.subarray(off, off + CHUNK)));
        off += CHUNK;
        return;
      }
      if (!sentTail) {
        sentTail = true;
        c.enqueue(new Uint8Array(formTail));
        return;
      }
      c.close();
    },
  });
}

async function post(k: Kit, user: string, path: string, body: ReadableStream<Uint8Array>, idem: string): Promise<CallResult> {
  const res = await k.env.app.fetch(
    new Request(`http://test.local${k.url(path)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await k.env.token(user)}`, "idempotency-key": idem, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: "half",
    } as RequestInit),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function expectStoreUnavailable(res: CallResult, label = ""): void {
  expectProblem(res, 503, "service_unavailable", label);
  expect(res.headers.get("retry-after"), label).toBe("5");
  expect(res.body.detail, label).toContain("content store");
  expect(JSON.stringify(res.body), label).not.toContain(BUCKET);
  expect(JSON.stringify(res.body), label).not.toContain(String(port));
}

const logsSince = (from: number) => kit.env.logLines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);

const pdf = (marker: string, size: number) => {
  const head = Buffer.from(`%PDF-1.7\n% ${marker}\n`);
  return Buffer.concat([head, randomBytes(size - head.length)]);
};

async function evidenceState(idem: string) {
  return kit.read(async (q) => ({
    records: (await q.select({ id: evidence.id }).from(evidence)).length,
    events: (await q.select({ id: evidenceEvents.id }).from(evidenceEvents)).length,
    keys: (await q.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, idem))).length,
  }));
}

describe("evidence uploads while the content store is down", () => {
  test("S3 down before the upload: 503 with Retry-After, no record, no object, no warning; restarted, the same request and key succeed", async () => {
    const fields = { targetType: "item", targetId: itemId, classification: "private" };
    const file = pdf("before", 64 * 1024);
    const before = await evidenceState("ev-down-1");
    const from = kit.env.logLines.length;
    await stopS3();
    let res: CallResult;
    try {
      res = await post(kit, "boss", "/evidence", streamedForm(formHead(fields, "note.pdf", "application/pdf"), file), "ev-down-1");
    } finally {
      await startS3();
    }
    expectStoreUnavailable(res, "upload with S3 down");
    expect(await evidenceState("ev-down-1")).toEqual(before);
    expect(await objectsUnder(`blobs/evidence/${kit.partnerId}/`)).toEqual([]);
    const lines = logsSince(from);
    expect(lines.find((l) => l.msg === "content store unavailable")).toMatchObject({ level: "error", op: "write", code: "ConnectionRefused" });
    expect(lines.some((l) => String(l.msg).includes("left behind"))).toBe(false);
    expect(lines.some((l) => l.msg === "unhandled error")).toBe(false);

    const again = await post(kit, "boss", "/evidence", streamedForm(formHead(fields, "note.pdf", "application/pdf"), file), "ev-down-1");
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBeNull();
    expect(await objectsUnder(`blobs/evidence/${kit.partnerId}/`)).toEqual([`blobs/evidence/${kit.partnerId}/${again.body.id}`]);
  });

  test("S3 stopped in the middle of a large (multipart) upload: 503, nothing stored or recorded; restarted, the same request and key succeed", async () => {
    const fields = { targetType: "item", targetId: itemId, classification: "internal" };
    const file = pdf("midway", 12 * 1024 * 1024);
    const before = await evidenceState("ev-mid-1");
    const existing = await objectsUnder(`blobs/evidence/${kit.partnerId}/`);
    const from = kit.env.logLines.length;
    let reached!: () => void;
    const atPause = new Promise<void>((r) => (reached = r));
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    // Paused after 7 MiB: the store has begun its multipart upload (5 MiB parts).
    const pending = post(kit, "boss", "/evidence", streamedForm(formHead(fields, "scan.pdf", "application/pdf"), file, { bytes: 7 * 1024 * 1024, reached, resume: resumed }), "ev-mid-1");
    await atPause;
    await Bun.sleep(300);
    await stopS3();
    resume();
    let res: CallResult;
    try {
      res = await pending;
    } finally {
      await startS3();
    }
    expectStoreUnavailable(res, "upload cut mid-way");
    expect(logsSince(from).some((l) => String(l.msg).includes("left behind"))).toBe(false);
    expect(await evidenceState("ev-mid-1")).toEqual(before);
    expect(await objectsUnder(`blobs/evidence/${kit.partnerId}/`)).toEqual(existing);

    const again = await post(kit, "boss", "/evidence", streamedForm(formHead(fields, "scan.pdf", "application/pdf"), file), "ev-mid-1");
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.size).toBe(file.length);
    expect(await objectsUnder(`blobs/evidence/${kit.partnerId}/`)).toEqual([...existing, `blobs/evidence/${kit.partnerId}/${again.body.id}`].sort());
  }, 30_000);

  test("a download while S3 is down is 503, not 500; the scan waits for the store; afterwards both work", async () => {
    const file = pdf("download", 32 * 1024);
    const up = await post(kit, "boss", "/evidence", streamedForm(formHead({ targetType: "item", targetId: itemId, classification: "private" }, "dl.pdf", "application/pdf"), file), "ev-dl-1");
    expect(up.status).toBe(201);
    await stopS3();
    try {
      // The scan cannot read the file: it stays queued (not failed) for the next run.
      const [deferred] = await runJob(kit.env.deps, evidenceScanJob, { partnerId: kit.partnerId });
      expect(deferred?.status).toBe("succeeded");
      expect(await kit.read(async (q) => (await q.select().from(evidence).where(eq(evidence.id, up.body.id)))[0]?.scannedAt)).toBeNull();
    } finally {
      await startS3();
    }
    await runJob(kit.env.deps, evidenceScanJob, { partnerId: kit.partnerId });
    expect((await kit.as("chief").post(`/evidence/${up.body.id}/review`, { decision: "clean" })).status).toBe(200);

    await stopS3();
    let down: Response;
    try {
      down = await kit.env.app.fetch(new Request(`http://test.local${kit.url(`/evidence/${up.body.id}/content`)}`, { headers: { authorization: `Bearer ${await kit.env.token("chief")}` } }));
    } finally {
      await startS3();
    }
    expectStoreUnavailable({ status: down.status, headers: down.headers, body: await down.json() }, "download with S3 down");
    const back = await kit.env.app.fetch(new Request(`http://test.local${kit.url(`/evidence/${up.body.id}/content`)}`, { headers: { authorization: `Bearer ${await kit.env.token("chief")}` } }));
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(file)).toBe(true);
  });
});

describe("background exports while the content store is down", () => {
  test("a queued export waits (queued, not failed) while the store is down and runs once it is back; its download is 503 meanwhile", async () => {
    const chief = kit.as("chief");
    const first = await chief.post("/interoperability/jobs", { format: "snapshot" });
    const second = await chief.post("/interoperability/jobs", { format: "snapshot" });
    expect([first.status, second.status]).toEqual([201, 201]);
    await stopS3();
    try {
      const [pass] = await runJob(kit.env.deps, interopExportsJob, { partnerId: kit.partnerId });
      expect(pass).toMatchObject({ status: "succeeded", processed: 0, detail: "exports run 0, failed 0" });
      for (const id of [first.body.id, second.body.id]) {
        expect((await chief.get(`/interoperability/jobs/${id}`)).body).toMatchObject({ state: "queued", failure: null, startedAt: null, result: null });
      }
    } finally {
      await startS3();
    }
    expect(await objectsUnder(`blobs/interop/`)).toEqual([]);
    const [pass] = await runJob(kit.env.deps, interopExportsJob, { partnerId: kit.partnerId });
    expect(pass).toMatchObject({ status: "succeeded", processed: 2 });
    expect((await chief.get(`/interoperability/jobs/${first.body.id}`)).body.state).toBe("succeeded");

    await stopS3();
    let res: CallResult;
    try {
      res = await chief.get(`/interoperability/jobs/${first.body.id}/result`);
    } finally {
      await startS3();
    }
    expectStoreUnavailable(res, "result download with S3 down");
    expect((await chief.get(`/interoperability/jobs/${first.body.id}/result`)).status).toBe(200);
  });
});

describe("planning artifacts while the content store is down", () => {
  test("an artifact upload is 503 with nothing left; restarted, the same request and key succeed", async () => {
    const planning = await partnerKit({ env: kit.env, partnerId: "stage-co", family: "planning", users: { pia: "admin" } });
    const project = (await planning.create("/projects", { name: "Festival", timeZone: "Europe/Vienna" })).id as string;
    const file = pdf("rider", 16 * 1024);
    const form = () => streamedForm(formHead({ classification: "internal" }, "rider.pdf", "application/pdf"), file);
    await stopS3();
    let res: CallResult;
    try {
      res = await post(planning, "pia", `/projects/${project}/artifacts`, form(), "art-down-1");
    } finally {
      await startS3();
    }
    expectStoreUnavailable(res, "artifact upload with S3 down");
    expect(await planning.read((q) => q.select().from(planningArtifacts))).toEqual([]);
    expect(await objectsUnder("blobs/artifact/")).toEqual([]);
    const again = await post(planning, "pia", `/projects/${project}/artifacts`, form(), "art-down-1");
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(await objectsUnder("blobs/artifact/")).toEqual([`blobs/artifact/stage-co/${again.body.id}`]);
  });
});
