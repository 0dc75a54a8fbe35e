// The per-partner write lock: a waiter that gives up must not open the lock for the
// writers after it while the holder still holds it.
import { test, expect } from "bun:test";
import { KeyedMutex, LockTimeoutError } from "../../src/platform/tenancy/write-lock.ts";

test("after a waiter times out, the next writer still waits for the holder", async () => {
  const locks = new KeyedMutex();
  let release!: () => void;
  const held = locks.run("acme", () => new Promise<void>((r) => (release = r)), 1_000);
  const timedOut = locks.run("acme", async () => "never", 20);
  await expect(timedOut).rejects.toBeInstanceOf(LockTimeoutError);
  const order: string[] = [];
  const next = locks.run("acme", async () => void order.push("next"), 1_000);
  await Bun.sleep(30);
  expect(order).toEqual([]); // the holder has not let go
  expect(locks.isLocked("acme")).toBe(true);
  order.push("holder releases");
  release();
  await held;
  await next;
  expect(order).toEqual(["holder releases", "next"]);
  await Bun.sleep(0);
  expect(locks.isLocked("acme")).toBe(false);
});

test("a writer alone runs at once, and other keys never wait", async () => {
  const locks = new KeyedMutex();
  let release!: () => void;
  const held = locks.run("a", () => new Promise<void>((r) => (release = r)));
  expect(await locks.run("b", async () => "b ran", 50)).toBe("b ran");
  release();
  await held;
});
