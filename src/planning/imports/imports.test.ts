// A spreadsheet of work and risks brought in as JSON: previewed (normalised, with a
// digest), applied once against that exact digest, replayed by its key; a stale
// digest is refused; one bad record names its field and writes nothing; locators
// of a content store never get in.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
// The content store is an S3-compatible service on this host: nothing that points there may be imported.
const S3_HOST = "objects.internal.example";
const api = await partnerKit({
  family: "planning",
  clock,
  tickMs: 1000,
  envVars: { S3_ENDPOINT: `https://${S3_HOST}:9000` },
  users: { pia: "admin", olga: "operator", eve: "operator", vic: "viewer" },
});
afterAll(() => api.close());
const olga = api.as("olga");
const s = { project: "", existing: "" };
const I = () => `/projects/${s.project}/imports`;
const workCount = async () => (await api.get(`/projects/${s.project}/work`)).body.total as number;

beforeAll(async () => {
  s.project = (await api.create("/projects", { name: "City run", timeZone: "Europe/Madrid", members: [{ userId: "olga", role: "member" }, { userId: "vic", role: "viewer" }] })).id;
  await api.create("/projects", { name: "Other", timeZone: "Europe/Madrid", members: [{ userId: "eve", role: "member" }] });
  s.existing = (await olga.create(`/projects/${s.project}/work`, { title: "Route permit" })).id;
});

const batch = () => [
  { collection: "work", data: { title: "  Water stations ", dueAt: "2026-09-01T10:00:00+02:00", assigneeUserId: "olga" } },
  { collection: "risks", data: { title: "Heat", likelihood: 3, impact: 4, ownerUserId: "olga", treatment: { option: "change_likelihood", plan: "Start at 8" }, reviewOn: "2026-08-01" } },
  { collection: "work", id: s.existing, expectedVersion: 1, data: { dueAt: "2026-07-01T00:00:00Z" } },
];

test("preview normalises and digests; apply with that digest writes everything at once; a retry replays", async () => {
  const preview = await olga.post(I(), { mode: "preview", records: batch() });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  expect(preview.body.errors).toEqual([]);
  expect(preview.body.previewDigest).toMatch(/^[0-9a-f]{64}$/);
  expect(preview.body.records[0]).toMatchObject({ collection: "work", id: null, data: { title: "Water stations", dueAt: "2026-09-01T08:00:00.000Z" } });
  expect(preview.body.records[2]).toMatchObject({ id: s.existing, expectedVersion: 1 });
  // The preview wrote nothing.
  expect(await workCount()).toBe(1);
  // The same records in another key order digest the same.
  const reordered = batch().map((r) => Object.fromEntries(Object.entries(r).reverse()));
  expect((await olga.post(I(), { mode: "preview", records: reordered })).body.previewDigest).toBe(preview.body.previewDigest);

  const key = crypto.randomUUID();
  expectFieldError(await olga.post(I(), { mode: "apply", records: batch(), previewDigest: preview.body.previewDigest }), "/body/idempotencyKey");
  const applied = await olga.post(I(), { mode: "apply", records: batch(), previewDigest: preview.body.previewDigest, idempotencyKey: key });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  expect(applied.body.records.map((r: any) => [r.index, r.collection, r.action, r.version])).toEqual([
    [0, "work", "created", 1],
    [1, "risks", "created", 1],
    [2, "work", "updated", 2],
  ]);
  expect(await workCount()).toBe(2);
  expect((await api.get(`/projects/${s.project}/work/${s.existing}`)).body.dueAt).toBe("2026-07-01T00:00:00.000Z");

  // A retry with the key replays without writing again (the update would now be stale).
  const again = await olga.post(I(), { mode: "apply", records: batch(), previewDigest: preview.body.previewDigest, idempotencyKey: key });
  expect(again.status).toBe(200);
  expect(again.body).toEqual(applied.body);
  expect(await workCount()).toBe(2);
  // The key replays only for the records it applied, whatever digest is sent along.
  const other = [{ ...batch()[0]!, data: { title: "Water stations (north)" } }, ...batch().slice(1)];
  expectProblem(await olga.post(I(), { mode: "apply", records: other, previewDigest: preview.body.previewDigest, idempotencyKey: key }), 409, "idempotency_key_reuse");
  expect(await workCount()).toBe(2);
});

test("apply without a preview, or with a stale digest, is 409 IMPORT_PREVIEW_REQUIRED", async () => {
  const records = [{ collection: "work", data: { title: "Medals" } }];
  const preview = await olga.post(I(), { mode: "preview", records });
  expectProblem(await olga.post(I(), { mode: "apply", records, idempotencyKey: crypto.randomUUID() }), 409, "IMPORT_PREVIEW_REQUIRED");
  const changed = [{ collection: "work", data: { title: "Medals and ribbons" } }];
  expectProblem(await olga.post(I(), { mode: "apply", records: changed, previewDigest: preview.body.previewDigest, idempotencyKey: crypto.randomUUID() }), 409, "IMPORT_PREVIEW_REQUIRED");
  expect(await workCount()).toBe(2);
});

test("one bad record names its field and nothing is written", async () => {
  const records = [
    { collection: "work", data: { title: "Barriers" } },
    { collection: "work", data: { title: "Stewards", assigneeUserId: "eve" } }, // not a member of this project
  ];
  const preview = await olga.post(I(), { mode: "preview", records });
  expect(preview.status).toBe(200);
  expect(preview.body.previewDigest).toBeNull();
  expect(preview.body.errors).toEqual([{ path: "/body/records/1/data/assigneeUserId", message: "not a member of this project" }]);

  const schemaBad = await olga.post(I(), { mode: "preview", records: [{ collection: "risks", data: { title: "Rain", likelihood: 9 } }] });
  expect(schemaBad.body.errors.map((e: any) => e.path)).toContain("/body/records/0/data/likelihood");

  // A stale expectedVersion is reported at preview, by the dry run.
  const stale = await olga.post(I(), { mode: "preview", records: [{ collection: "work", id: s.existing, expectedVersion: 1, data: { title: "x" } }] });
  expect(stale.body.previewDigest).toBeNull();
  expect(stale.body.errors.map((e: any) => e.path)).toEqual(["/body/records/0/expectedVersion"]);
});

test("the digest binds what the preview checked: a record that moved since is 409 IMPORT_PREVIEW_REQUIRED naming it, and nothing is written", async () => {
  const version = (await api.get(`/projects/${s.project}/work/${s.existing}`)).body.version as number;
  const good = [{ collection: "work", data: { title: "Barriers" } }, { collection: "work", id: s.existing, expectedVersion: version, data: { title: "Route permit (city)" } }];
  const ok = await olga.post(I(), { mode: "preview", records: good });
  expect(ok.body.errors).toEqual([]);
  // Someone edits the targeted record between preview and apply.
  await olga.patch(`/projects/${s.project}/work/${s.existing}`, { expectedVersion: version, description: "changed meanwhile" });
  const before = await workCount();
  const res = await olga.post(I(), { mode: "apply", records: good, previewDigest: ok.body.previewDigest, idempotencyKey: crypto.randomUUID() });
  expectProblem(res, 409, "IMPORT_PREVIEW_REQUIRED");
  expect(res.body.detail).toContain("record 1");
  expect(res.body.detail).toContain(`version ${version + 1}`);
  expect(res.body.changedRecords).toEqual([{ index: 1, collection: "work", id: s.existing, previewedVersion: version, currentVersion: version + 1 }]);
  expect(await workCount()).toBe(before);
  expect((await api.get(`/projects/${s.project}/work/${s.existing}`)).body.title).toBe("Route permit");

  // A fresh preview (with the current version) applies.
  const again = [good[0]!, { ...good[1]!, expectedVersion: version + 1 }];
  const fresh = await olga.post(I(), { mode: "preview", records: again });
  const applied = await olga.post(I(), { mode: "apply", records: again, previewDigest: fresh.body.previewDigest, idempotencyKey: crypto.randomUUID() });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  expect((await api.get(`/projects/${s.project}/work/${s.existing}`)).body.title).toBe("Route permit (city)");
});

test("a digest previewed in one project is refused in another, even for the same records", async () => {
  const q = (await api.create("/projects", { name: "Harbour run", timeZone: "Europe/Madrid", members: [{ userId: "olga", role: "member" }] })).id;
  const records = [{ collection: "work", data: { title: "Cones" } }];
  const inP = await olga.post(I(), { mode: "preview", records });
  expect(inP.body.previewDigest).toMatch(/^[0-9a-f]{64}$/);
  const inQ = await olga.post(`/projects/${q}/imports`, { mode: "preview", records });
  expect(inQ.body.previewDigest).toMatch(/^[0-9a-f]{64}$/);
  expect(inQ.body.previewDigest).not.toBe(inP.body.previewDigest);

  const res = await olga.post(`/projects/${q}/imports`, { mode: "apply", records, previewDigest: inP.body.previewDigest, idempotencyKey: crypto.randomUUID() });
  expectProblem(res, 409, "IMPORT_PREVIEW_REQUIRED");
  expect(res.body.detail).toContain("this project");
  expect((await api.get(`/projects/${q}/work`)).body.total).toBe(0);
  // Its own preview's digest applies there.
  const ok = await olga.post(`/projects/${q}/imports`, { mode: "apply", records, previewDigest: inQ.body.previewDigest, idempotencyKey: crypto.randomUUID() });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  expect((await api.get(`/projects/${q}/work`)).body.total).toBe(1);
});

test("content-store locators are rejected; scope and roles hold", async () => {
  const res = await olga.post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "Map", description: "see s3://bucket/partner/map.pdf" } }] });
  expect(res.body.errors).toEqual([{ path: "/body/records/0/data/description", message: expect.stringContaining("locator") }]);
  expectFieldError(await olga.post(I(), { mode: "preview", records: [] }), "/body/records");
  expectFieldError(await olga.post(I(), { mode: "preview", records: Array.from({ length: 501 }, () => ({ collection: "work", data: { title: "x" } })) }), "/body/records");
  expectProblem(await api.as("eve").post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "x" } }] }), 404, "not_found");
  expectProblem(await api.as("vic").post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "x" } }] }), 403, "capability_denied");
});

test("locators: the configured S3 endpoint's host, object-store hosts and any presigned URL are refused, anywhere in a record", async () => {
  const refused = [
    // The configured S3_ENDPOINT, on any scheme or port, path- or virtual-hosted-style, with or without a scheme.
    `https://${S3_HOST}:9000/planning-bucket/acme/map.pdf`,
    `see http://${S3_HOST}/bucket/key for the map`,
    `https://planning-bucket.${S3_HOST}/acme/map.pdf`,
    `${S3_HOST.toUpperCase()}:9000/planning-bucket/map.pdf`,
    // Presigned / signed URLs on any host.
    "https://cdn.example.com/map.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260501T000000Z&X-Amz-Expires=900",
    "https://files.example.com/map.pdf?Expires=1780000000&Signature=abc123&Key-Pair-Id=K2JCJMDEHXQW5F",
    "https://media.example.org/o/map.pdf?GoogleAccessId=svc%40proj.iam.gserviceaccount.com&Expires=1780000000&Signature=xyz",
    "https://store.example.net/c/map.pdf?sv=2022-11-02&se=2026-06-01T00%3A00%3A00Z&sp=r&sig=abc%3D",
    "https://x.example/y?x-goog-signature=abc&x-goog-credential=k",
    // Object-store hosts and schemes (path-style S3 too).
    "https://s3.eu-central-1.amazonaws.com/planning-bucket/map.pdf",
    "https://planning-bucket.s3.amazonaws.com/map.pdf",
    "s3://planning-bucket/acme/map.pdf",
    "gs://planning-bucket/map.pdf",
    "https://acct.blob.core.windows.net/c/map.pdf",
    "https://storage.googleapis.com/planning-bucket/map.pdf",
  ];
  for (const [i, text] of refused.entries()) {
    const res = await olga.post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "Map", description: text } }] });
    expect(res.body.errors, `${i}: ${text}`).toEqual([{ path: "/body/records/0/data/description", message: expect.stringContaining("locator") }]);
    expect(res.body.previewDigest, text).toBeNull();
  }
  // Deep: a locator inside a nested array element of any collection is named at its own path.
  const gate = {
    collection: "gates",
    data: { title: "Go/no-go", dueOn: "2026-08-20", ownerUserId: "olga", criteria: [{ text: "Permit signed" }, { text: `Plan at https://${S3_HOST}/b/plan.pdf` }] },
  };
  const deep = await olga.post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "Fine" } }, gate] });
  expect(deep.body.errors).toEqual([{ path: "/body/records/1/data/criteria/1/text", message: expect.stringContaining("locator") }]);
  // And apply refuses them too, whatever digest it is sent.
  const apply = await olga.post(I(), { mode: "apply", records: [gate], previewDigest: "0".repeat(64), idempotencyKey: crypto.randomUUID() });
  expectFieldError(apply, "/body/records/0/data/criteria/1/text");

  // Ordinary links stay welcome.
  const fine = await olga.post(I(), {
    mode: "preview",
    records: [{ collection: "work", data: { title: "Permit", description: "https://city.example/permits?id=42&lang=en and https://objects.example/catalogue" } }],
  });
  expect(fine.body.errors).toEqual([]);
});
