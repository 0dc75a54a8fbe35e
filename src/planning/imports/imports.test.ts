// A spreadsheet of work and risks brought in as JSON: previewed (normalised, with a
// digest), applied once against that exact digest, replayed by its key; a stale
// digest is refused; one bad record names its field and writes nothing; locators
// of a content store never get in.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", olga: "operator", eve: "operator", vic: "viewer" } });
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

  // Apply re-checks against the data as it is now: a record gone stale since its preview fails the whole import.
  const good = [{ collection: "work", data: { title: "Barriers" } }, { collection: "work", id: s.existing, expectedVersion: 2, data: { title: "Route permit (city)" } }];
  const ok = await olga.post(I(), { mode: "preview", records: good });
  expect(ok.body.errors).toEqual([]);
  await olga.patch(`/projects/${s.project}/work/${s.existing}`, { expectedVersion: 2, description: "changed meanwhile" });
  const res = await olga.post(I(), { mode: "apply", records: good, previewDigest: ok.body.previewDigest, idempotencyKey: crypto.randomUUID() });
  expectFieldError(res, "/body/records/1/expectedVersion");
  expect(await workCount()).toBe(2);
});

test("content-store locators are rejected; scope and roles hold", async () => {
  const res = await olga.post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "Map", description: "see s3://bucket/partner/map.pdf" } }] });
  expect(res.body.errors).toEqual([{ path: "/body/records/0/data/description", message: expect.stringContaining("locator") }]);
  expectFieldError(await olga.post(I(), { mode: "preview", records: [] }), "/body/records");
  expectFieldError(await olga.post(I(), { mode: "preview", records: Array.from({ length: 501 }, () => ({ collection: "work", data: { title: "x" } })) }), "/body/records");
  expectProblem(await api.as("eve").post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "x" } }] }), 404, "not_found");
  expectProblem(await api.as("vic").post(I(), { mode: "preview", records: [{ collection: "work", data: { title: "x" } }] }), 403, "capability_denied");
});
