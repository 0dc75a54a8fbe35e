// Continuity runs: a drill is started with its checklist and completed once, with
// one result per checklist item and an outcome consistent with them.
import { test, expect, afterAll, describe } from "bun:test";
import { MutableClock } from "../../../../test/harness.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";

const clock = new MutableClock(new Date("2026-06-07T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "hub-continuity", users: { ada: "admin", otto: "operator" }, tickMs: 1000 });
afterAll(() => api.close());

const start = () => api.create("/hub/continuity-runs", { scenario: "Power loss in warehouse A", checklist: ["Switch to generator", "Scanners on battery", "Manual pick lists"] });

describe("a continuity run", () => {
  test("starts in progress with its numbered checklist and completes once with results and an outcome", async () => {
    const res = await api.as("otto").post("/hub/continuity-runs", { scenario: "Power loss in warehouse A", checklist: ["Switch to generator", "Scanners on battery"] });
    expect(res.status).toBe(201);
    const run = res.body;
    expect(res.headers.get("location")).toBe(`/api/assets/hub/records/${run.id}?partnerId=hub-continuity`);
    expect(run).toMatchObject({
      status: "in_progress",
      outcome: null,
      startedAt: clock.current.toISOString(),
      checklist: [
        { position: 1, title: "Switch to generator", result: null, note: null },
        { position: 2, title: "Scanners on battery", result: null, note: null },
      ],
    });
    const done = await api.post(`/hub/continuity-runs/${run.id}/complete`, {
      results: [
        { position: 2, result: "failed", note: "Two scanners died after 20 minutes" },
        { position: 1, result: "passed" },
      ],
      outcome: "partial",
      notes: "Buy spare batteries",
      expectedVersion: 1,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      status: "completed",
      outcome: "partial",
      notes: "Buy spare batteries",
      completedBy: "ada",
      completedAt: clock.current.toISOString(),
      version: 2,
      checklist: [
        { position: 1, result: "passed", note: null },
        { position: 2, result: "failed", note: "Two scanners died after 20 minutes" },
      ],
    });
    const again = await api.post(`/hub/continuity-runs/${run.id}/complete`, { results: [{ position: 1, result: "passed" }, { position: 2, result: "passed" }], outcome: "passed" });
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("completed");
    const detail = await api.get(`/hub/records/${run.id}`);
    expect(detail.body).toMatchObject({ recordType: "continuity", kind: null, title: "Power loss in warehouse A", status: "completed", at: run.startedAt });
    expect(detail.body.events.map((e: { kind: string }) => e.kind)).toEqual(["completed", "started"]);
  });

  test("every checklist position needs exactly one result, and a failed item cannot pass", async () => {
    const run = await start();
    const url = `/hub/continuity-runs/${run.id}/complete`;
    const all = (result: string) => [1, 2, 3].map((position) => ({ position, result }));
    expectFieldError(await api.post(url, { results: all("passed").slice(0, 2), outcome: "passed" }), "/body/results");
    expectFieldError(await api.post(url, { results: [...all("passed"), { position: 2, result: "skipped" }], outcome: "partial" }), "/body/results/3/position");
    expectFieldError(await api.post(url, { results: [...all("passed").slice(0, 2), { position: 4, result: "passed" }], outcome: "passed" }), "/body/results/2/position");
    expectFieldError(await api.post(url, { results: [{ position: 1, result: "failed" }, ...all("passed").slice(1)], outcome: "passed" }), "/body/outcome");
    expectFieldError(await api.post(url, { results: all("passed"), outcome: "great" }), "/body/outcome");
    expectFieldError(await api.post("/hub/continuity-runs", { scenario: "Flood", checklist: [] }), "/body/checklist");
    expectFieldError(await api.post("/hub/continuity-runs", { scenario: "Flood", checklist: ["ok", " "] }), "/body/checklist/1");
    expectProblem(await api.post(url, { results: all("passed"), outcome: "passed", expectedVersion: 3 }), 409, "version_conflict");
    expect((await api.post(url, { results: all("skipped"), outcome: "failed" })).body).toMatchObject({ status: "completed", outcome: "failed" });
    expectProblem(await api.post(`/hub/continuity-runs/${Bun.randomUUIDv7()}/complete`, { results: all("passed"), outcome: "passed" }), 404, "not_found");
  });
});
