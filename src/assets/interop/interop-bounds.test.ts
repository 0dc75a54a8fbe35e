// The export bounds at full size: a partner whose item has exactly 10,000 movements
// exports them all (valid against GS1's schema); one more is 400, for the direct
// export and for a background job alike. The same partner's snapshot pages through
// thousands of movements recorded at the same instant without losing or repeating one.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { withTx } from "../../platform/db/transactions.ts";
import { recordMovement } from "../kernel/movements.ts";
import { EPCIS_MAX_EVENTS } from "./epcis.schemas.ts";
import { profileIssues } from "./epcis.validation.ts";

const officialSchema = JSON.parse(readFileSync(`${import.meta.dir}/../../../test/fixtures/standards/epcis/epcis-json-schema-2.0.1.json`, "utf8"));
const ajv = new Ajv({ strict: false });
addFormats(ajv);
const validate = ajv.compile(officialSchema);

const T0 = new Date("2026-06-01T09:00:00.000Z");
const clock = new MutableClock(T0);
const api = await partnerKit({ clock, users: { admin: "admin" } });
afterAll(() => api.close());
let itemId = "";

/** Appends n chronology-only steps through the kernel's one insert path, in one transaction. */
async function tag(n: number) {
  await api.inTenant((ctx) =>
    withTx(ctx, async (ctx) => {
      for (let i = 0; i < n; i++) await recordMovement(ctx, { itemId, kind: "tagged", data: { n: i } });
    }),
  );
}

beforeAll(async () => {
  itemId = (await api.seed.activeAsset({ name: "Forklift" })).id; // registered + activated
  clock.advance(60_000);
  await tag(EPCIS_MAX_EVENTS - 2);
  clock.advance(60_000);
});

const window = { from: "2026-06-01T00:00:00Z", to: "2026-06-02T00:00:00Z" };

test("exactly 10,000 events export, valid against GS1's schema and our profile", async () => {
  const res = await api.get("/interoperability/epcis", { query: window });
  expect(res.status).toBe(200);
  expect(res.body.epcisBody.eventList.length).toBe(EPCIS_MAX_EVENTS);
  expect(validate(res.body)).toBe(true);
  expect(profileIssues(res.body)).toEqual([]);
});

test("one more is 400 with a clear message, for the export and for a job", async () => {
  await tag(1);
  const res = await api.get("/interoperability/epcis", { query: window });
  expectFieldError(res, "/query/from");
  expect(res.body.detail).toContain("at most 10000");
  expectFieldError(await api.post("/interoperability/jobs", { format: "epcis", ...window }), "/body/from");
  // Narrowed by kind it fits again.
  expect((await api.get("/interoperability/epcis", { query: { ...window, kind: "registered,activated" } })).body.epcisBody.eventList.length).toBe(2);
});

test("the snapshot pages through every movement, ties on recordedAt included", async () => {
  const snap = (await api.get("/interoperability/snapshot")).body;
  const ids = snap.chronology.movements.map((m: { id: string }) => m.id);
  expect(ids.length).toBe(EPCIS_MAX_EVENTS + 1);
  expect(new Set(ids).size).toBe(ids.length);
});
