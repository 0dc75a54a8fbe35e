// A signed rider uploaded to a project: encrypted at rest, locked (423) until the
// `scans` job scanned it and a reviewer other than the uploader cleared it, then served
// byte-identical through the proxy; other projects' members see nothing (404), other
// partners are refused (403), a file whose bytes lie about their type is quarantined
// on arrival, and one clamd flags is quarantined by the scan and never served.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { EICAR, startFakeClamd } from "../../../test/fakes/fake-clamd.ts";
import { runJob } from "../../jobs/run-job.ts";
import { evidenceScanJob } from "../../jobs/evidence-scan.job.ts";
import { planningAudit } from "../audit/audit.tables.ts";
import { planningArtifacts } from "./artifacts.tables.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", max: "manager", olga: "operator", eve: "manager", vic: "viewer" } });
afterAll(() => api.close());
const s = { project: "", other: "", work: "", artifact: "" };
const BOUNDARY = "----artifact-test-b0undary";

function form(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

async function upload(kit: Kit, user: string, projectId: string, body: Buffer) {
  const res = await kit.env.app.fetch(
    new Request(`http://test.local${kit.url(`/projects/${projectId}/artifacts`)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await kit.env.token(user)}`, "idempotency-key": crypto.randomUUID(), "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    }),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function download(user: string, id: string, kit: Kit = api) {
  const res = await kit.env.app.fetch(new Request(`http://test.local${kit.url(`/artifacts/${id}/content`)}`, { headers: { authorization: `Bearer ${await kit.env.token(user)}` } }));
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, body: (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(bytes.toString("utf8")) : undefined };
}

const rider = Buffer.from(`%PDF-1.7\n${"Technical rider: 2 x 32A three-phase, stage 12 x 8 m.\n".repeat(300)}%%EOF\n`);

beforeAll(async () => {
  const members = [{ userId: "olga", role: "member" }, { userId: "max", role: "member" }, { userId: "vic", role: "viewer" }];
  s.project = (await api.create("/projects", { name: "Open-air concert", timeZone: "Europe/Vienna", members })).id;
  s.other = (await api.create("/projects", { name: "Other", timeZone: "Europe/Vienna", members: [{ userId: "eve", role: "member" }] })).id;
  s.work = (await api.as("olga").create(`/projects/${s.project}/work`, { title: "Power supply" })).id;
});

test("upload → locked (423) → reviewed clean by another → byte-identical through the proxy", async () => {
  const up = await upload(api, "olga", s.project, form({ classification: "internal", planningRecordId: s.work }, { name: "rider.pdf", type: "application/pdf", bytes: rider }));
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  expect(up.body).toMatchObject({ scanState: "pending", fileName: "rider.pdf", size: rider.length, sha256: createHash("sha256").update(rider).digest("hex"), planningRecordId: s.work, createdBy: "olga" });
  s.artifact = up.body.id;
  expect(JSON.stringify(up.body)).not.toMatch(/storage|envelope|artifact\//);

  // Only ciphertext in the store.
  const blobDir = join(api.env.deps.config.tenantsDir, ".blobs");
  const stored = await findFiles(blobDir);
  const blobs = await Promise.all(stored.map((f) => readFile(f)));
  expect(blobs.some((b) => b.length >= rider.length)).toBe(true);
  expect(blobs.some((b) => b.includes(Buffer.from("Technical rider")))).toBe(false);

  expectProblem(await download("olga", s.artifact), 423, "evidence_locked");
  // Reviewing is planning_review's, and never the uploader's own.
  expectProblem(await api.as("olga").post(`/artifacts/${s.artifact}/review`, { decision: "clean" }), 403, "capability_denied");
  const own = await upload(api, "max", s.project, form({ classification: "internal" }, { name: "plan.pdf", type: "application/pdf", bytes: rider }));
  expectProblem(await api.as("max").post(`/artifacts/${own.body.id}/review`, { decision: "clean" }), 403, "maker_cannot_decide");

  // Cleared only once the automatic scan has run.
  expect(up.body.scanned).toBe(false);
  expectProblem(await api.as("max").post(`/artifacts/${s.artifact}/review`, { decision: "clean" }), 409, "state_conflict");
  expect((await runJob(api.env.deps, evidenceScanJob, { partnerId: api.partnerId }))[0]).toMatchObject({ status: "succeeded", detail: "evidence scanned 0, artifacts scanned 2" });
  const cleared = await api.as("max").post(`/artifacts/${s.artifact}/review`, { decision: "clean", reason: "Checked" });
  expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
  expect(cleared.body).toMatchObject({ scanState: "clean", scanned: true, reviewedBy: "max", reviewReason: "Checked" });
  expectProblem(await api.as("max").post(`/artifacts/${s.artifact}/review`, { decision: "quarantine" }), 409, "state_conflict");

  const got = await download("vic", s.artifact);
  expect(got.status).toBe(200);
  expect(got.headers.get("location")).toBeNull();
  expect(got.headers.get("content-type")).toBe("application/pdf");
  expect(Buffer.compare(got.bytes, rider)).toBe(0);
  expect(got.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(rider).digest("base64")}:`);

  // Quarantined stays locked.
  expect((await api.as("pia").post(`/artifacts/${own.body.id}/review`, { decision: "quarantine" })).body.scanState).toBe("quarantined");
  expectProblem(await download("pia", own.body.id), 423, "evidence_locked");
}, 20_000);

async function findFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await findFiles(p)));
    else out.push(p);
  }
  return out;
}

test("out of scope: another project's member 404 (upload, content, review), another partner 403", async () => {
  expectProblem(await download("eve", s.artifact), 404, "not_found");
  expectProblem(await api.as("eve").post(`/artifacts/${s.artifact}/review`, { decision: "quarantine" }), 404, "not_found");
  const up = await upload(api, "eve", s.project, form({ classification: "internal" }, { name: "x.pdf", type: "application/pdf", bytes: rider }));
  expectProblem(up, 404, "not_found");
  // A project viewer cannot upload.
  expectProblem(await upload(api, "vic", s.project, form({ classification: "internal" }, { name: "x.pdf", type: "application/pdf", bytes: rider })), 403, "capability_denied");
  const other = await partnerKit({ env: api.env, partnerId: "rival", family: "planning", users: { rita: "owner" } });
  const res = await api.env.app.fetch(new Request(`http://test.local${api.url(`/artifacts/${s.artifact}/content`)}`, { headers: { authorization: `Bearer ${await api.env.token("rita")}` } }));
  expect(res.status).toBe(403);
  expect(((await res.json()) as any).code).toBe("partner_access_denied");
  other.close();
});

test("bad forms are 400 at their field; bytes that contradict their type are quarantined on arrival", async () => {
  expectFieldError(await upload(api, "olga", s.project, form({ classification: "secret" }, { name: "a.pdf", type: "application/pdf", bytes: rider })), "/body/classification");
  expectFieldError(await upload(api, "olga", s.project, form({ classification: "internal", planningRecordId: s.other }, { name: "a.pdf", type: "application/pdf", bytes: rider })), "/body/planningRecordId");
  expectFieldError(await upload(api, "olga", s.project, form({ classification: "internal" })), "/body/file");
  const exe = await upload(api, "olga", s.project, form({ classification: "internal" }, { name: "photo.png", type: "image/png", bytes: Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200, 1)]) }));
  expect(exe.status).toBe(201);
  expect(exe.body.scanState).toBe("quarantined");
  expect(exe.body.scanFinding).toContain("executable");
});

describe("with clamd", () => {
  test("the scans job streams artifacts to clamd: the EICAR test file is quarantined and never served, a clean file waits for its review", async () => {
    const clamd = await startFakeClamd();
    const kit = await partnerKit({ partnerId: "scanned-co", family: "planning", users: { pia: "admin", max: "manager", olga: "operator" }, envVars: { CLAMD_HOST: clamd.host, CLAMD_PORT: String(clamd.port) } });
    try {
      const project = (await kit.create("/projects", { name: "Scanned fair", timeZone: "Europe/Vienna", members: [{ userId: "olga", role: "member" }, { userId: "max", role: "member" }] })).id as string;
      const eicar = await upload(kit, "olga", project, form({ classification: "internal" }, { name: "eicar.txt", type: "text/plain", bytes: Buffer.from(EICAR) }));
      const fine = await upload(kit, "olga", project, form({ classification: "internal" }, { name: "rider.pdf", type: "application/pdf", bytes: rider }));
      expect(eicar.status, JSON.stringify(eicar.body)).toBe(201);
      expect(eicar.body).toMatchObject({ scanState: "pending", scanned: false });

      const [run] = await runJob(kit.env.deps, evidenceScanJob, { partnerId: kit.partnerId });
      expect(run).toMatchObject({ status: "succeeded", processed: 2, detail: "evidence scanned 0, artifacts scanned 2" });
      expect(clamd.scans.map((x) => x.bytes).sort((a, b) => a - b)).toEqual([EICAR.length, rider.length].sort((a, b) => a - b));

      const [stored] = await kit.read((q) => q.select().from(planningArtifacts).where(eq(planningArtifacts.id, eicar.body.id)));
      expect(stored).toMatchObject({ scanState: "quarantined", scanFinding: "malware signature Eicar-Signature" });
      expect(stored!.scannedAt).toBeString();
      // Quarantined: not downloadable, and no reviewer can clear it any more.
      expectProblem(await download("max", eicar.body.id, kit), 423, "evidence_locked");
      expectProblem(await download("pia", eicar.body.id, kit), 423, "evidence_locked");
      expectProblem(await kit.as("max").post(`/artifacts/${eicar.body.id}/review`, { decision: "clean" }), 409, "state_conflict");
      const audit = await kit.read((q) => q.select().from(planningAudit).where(eq(planningAudit.recordId, eicar.body.id)));
      expect(audit.map((a) => [a.action, a.actorId])).toEqual([["uploaded", "olga"], ["scanned", "system"]]);
      expect(audit[1]!.data).toEqual({ outcome: "quarantined", finding: "malware signature Eicar-Signature", clamd: true });

      // The clean one was scanned and stays pending for a reviewer, who may clear it now.
      expectProblem(await download("max", fine.body.id, kit), 423, "evidence_locked");
      const cleared = await kit.as("max").post(`/artifacts/${fine.body.id}/review`, { decision: "clean" });
      expect(cleared.body).toMatchObject({ scanState: "clean", scanned: true });
      expect((await download("max", fine.body.id, kit)).status).toBe(200);

      // Nothing left in the queue: the next pass is idle.
      const [next] = await runJob(kit.env.deps, evidenceScanJob, { partnerId: kit.partnerId });
      expect(next?.status).toBe("idle");
    } finally {
      kit.close();
      await clamd.close();
    }
  }, 20_000);
});
