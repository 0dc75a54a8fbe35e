// A reservation is started within its window only.
import { test, expect, afterAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-11-23T08:00:00.000Z"));
const api = await partnerKit({ clock, users: { ops: "admin" } });
afterAll(() => api.close());
const day = 86_400_000;
const at = (ms: number) => new Date(clock.current.getTime() + ms).toISOString();

test("starting a reservation days before its window is 409; within it, 201", async () => {
  const site = (await api.post("/locations", { name: "Site", kind: "site" })).body.id;
  const item = (await api.post("/assets", { name: "Van", locationId: site, ownership: "owned" })).body;
  await api.post(`/items/${item.id}/activate`, {});
  const holder = { kind: "user", id: "ops" };
  const res = await api.post("/reservations", { itemId: item.id, holder, startsAt: at(7 * day), endsAt: at(8 * day) });
  expect(res.status).toBe(201);
  const early = await api.post("/checkouts", { itemId: item.id, holder, dueAt: at(7.5 * day), reservationId: res.body.id });
  expect(early.status).toBe(409);
  expect(early.body.detail).toContain("starts at");
  clock.advance(7 * day + 60_000);
  const onTime = await api.post("/checkouts", { itemId: item.id, holder, dueAt: at(day / 2), reservationId: res.body.id });
  expect(onTime.status).toBe(201);
  expect(onTime.body).toMatchObject({ id: res.body.id, state: "checked_out" });
});
