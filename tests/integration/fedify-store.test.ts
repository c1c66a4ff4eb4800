import { Temporal as TemporalPolyfill } from "@js-temporal/polyfill";
import { testMessageQueue } from "@fedify/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { DatabaseKvStore } from "../../server/fediverse/kv-store.ts";
import { DatabaseMessageQueue } from "../../server/fediverse/message-queue.ts";
import { claimMessages, insertMessages } from "../../server/fediverse/repositories/fedify-store.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";

// Node has no Temporal yet: Fedify runs on this polyfill, and its types name the standard one.
const seconds = (count: number) => TemporalPolyfill.Duration.from({ seconds: count }) as unknown as Temporal.Duration;

describe.each(testDialects())("Fedify's store and queue on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let now: Date;
  const clock = () => now;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    now = new Date("2026-03-01T10:00:00.000Z");
  });
  afterEach(async () => {
    await handle?.close();
  });

  describe("the key–value store", () => {
    it("gets what was set, under its whole key, until it is deleted", async () => {
      const kv = new DatabaseKvStore(handle.db, clock);
      await kv.set(["_fedify", "doc", "https://a.example/x"], { id: "x", n: [1, 2] });
      await kv.set(["_fedify", "doc"], "shorter key");
      expect(await kv.get(["_fedify", "doc", "https://a.example/x"])).toEqual({ id: "x", n: [1, 2] });
      expect(await kv.get(["_fedify", "doc"])).toBe("shorter key");
      await kv.set(["_fedify", "doc"], "replaced");
      expect(await kv.get(["_fedify", "doc"])).toBe("replaced");
      await kv.delete(["_fedify", "doc"]);
      expect(await kv.get(["_fedify", "doc"])).toBeUndefined();
      expect(await kv.get(["_fedify", "doc", "https://a.example/x"])).toEqual({ id: "x", n: [1, 2] });
    });

    it("forgets an entry once its time to live has passed", async () => {
      const kv = new DatabaseKvStore(handle.db, clock);
      await kv.set(["k"], 1, { ttl: seconds(30) });
      now = new Date(now.getTime() + 29_000);
      expect(await kv.get(["k"])).toBe(1);
      now = new Date(now.getTime() + 2_000);
      expect(await kv.get(["k"])).toBeUndefined();
      expect(await kv.purgeExpired()).toBe(1);
    });

    it("lists the entries under a prefix, and no key that merely starts with the same letters", async () => {
      const kv = new DatabaseKvStore(handle.db, clock);
      await kv.set(["a"], 0);
      await kv.set(["a", "b"], 1);
      await kv.set(["a", "b", "c"], 2);
      await kv.set(["ab"], 3);
      await kv.set(["A", "b"], 4);
      const listed = [];
      for await (const entry of kv.list(["a"])) listed.push(entry);
      expect(listed.sort((a, b) => a.key.length - b.key.length)).toEqual([
        { key: ["a"], value: 0 },
        { key: ["a", "b"], value: 1 },
        { key: ["a", "b", "c"], value: 2 },
      ]);
      const all = [];
      for await (const entry of kv.list()) all.push(entry.value);
      expect(all.sort()).toEqual([0, 1, 2, 3, 4]);
    });

    it("swaps a value only while it still holds the expected one", async () => {
      const kv = new DatabaseKvStore(handle.db, clock);
      expect(await kv.cas(["c"], undefined, { state: "closed" })).toBe(true);
      expect(await kv.cas(["c"], undefined, { state: "other" })).toBe(false);
      expect(await kv.cas(["c"], { state: "open" }, { state: "half" })).toBe(false);
      expect(await kv.cas(["c"], { state: "closed" }, { state: "open" })).toBe(true);
      expect(await kv.get(["c"])).toEqual({ state: "open" });
    });
  });

  describe("the message queue", () => {
    it("passes Fedify's own test of a message queue, ordering keys included", { timeout: 60_000 }, async () => {
      const queues: DatabaseMessageQueue[] = [];
      await testMessageQueue(
        () => {
          const queue = new DatabaseMessageQueue({ db: handle.db, dialect }, { pollIntervalMs: 100 });
          queues.push(queue);
          return queue;
        },
        () => {},
        { testOrderingKey: true },
      );
      expect(queues).toHaveLength(2);
    });

    it("hands a delayed message out only when it is due, and a claimed one to nobody else until its lease lapses", async () => {
      const at = now.toISOString();
      const later = new Date(now.getTime() + 60_000).toISOString();
      await insertMessages(handle.db, [
        { payload: '"now"', orderingKey: null, availableAt: at, at },
        { payload: '"later"', orderingKey: null, availableAt: later, at },
      ]);
      const leaseUntil = new Date(now.getTime() + 30_000).toISOString();
      const first = await claimMessages(handle.db, dialect, { at, leaseUntil, limit: 10 });
      expect(first.map((message) => message.payload)).toEqual(['"now"']);
      expect(await claimMessages(handle.db, dialect, { at, leaseUntil, limit: 10 })).toEqual([]);

      const afterLease = new Date(now.getTime() + 31_000).toISOString();
      const again = await claimMessages(handle.db, dialect, { at: afterLease, leaseUntil: later, limit: 10 });
      expect(again.map((message) => message.payload)).toEqual(['"now"']);
      const due = await claimMessages(handle.db, dialect, { at: later, leaseUntil: later, limit: 10 });
      expect(due.map((message) => message.payload)).toEqual(['"later"']);
    });

    it("holds back a message while an older one of the same ordering key is queued", async () => {
      const at = now.toISOString();
      await insertMessages(handle.db, [
        { payload: '"create"', orderingKey: "post-1", availableAt: at, at },
        { payload: '"delete"', orderingKey: "post-1", availableAt: at, at },
        { payload: '"other"', orderingKey: "post-2", availableAt: at, at },
      ]);
      const leaseUntil = new Date(now.getTime() + 30_000).toISOString();
      const claimed = await claimMessages(handle.db, dialect, { at, leaseUntil, limit: 10 });
      expect(claimed.map((message) => message.payload)).toEqual(['"create"', '"other"']);
    });

    it("never gives one message to two servers claiming at the same time", async () => {
      const at = now.toISOString();
      const payloads = Array.from({ length: 60 }, (_, index) => `"m${index}"`);
      await insertMessages(
        handle.db,
        payloads.map((payload) => ({ payload, orderingKey: null, availableAt: at, at })),
      );
      const second = await createSecondConnection(handle, dialect);
      try {
        const leaseUntil = new Date(now.getTime() + 30_000).toISOString();
        const claims = await Promise.all(
          [handle.db, second.db, handle.db, second.db, handle.db, second.db].map((db) =>
            claimMessages(db, dialect, { at, leaseUntil, limit: 15 }),
          ),
        );
        const taken = claims.flat().map((message) => message.payload);
        expect(new Set(taken).size).toBe(taken.length);
        expect(taken.sort()).toEqual([...payloads].sort());
      } finally {
        await second.close();
      }
    });

    it("lets the handlers in flight finish when listening stops, and keeps what was not taken", async () => {
      const queue = new DatabaseMessageQueue({ db: handle.db, dialect }, { pollIntervalMs: 50, concurrency: 2 });
      const controller = new AbortController();
      const handled: unknown[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const listening = queue.listen(
        async (message) => {
          await gate;
          handled.push(message);
        },
        { signal: controller.signal },
      );
      await queue.enqueueMany(["a", "b", "c", "d"]);
      await expect.poll(async () => (await queue.getDepth()).queued).toBe(2);
      controller.abort();
      release();
      await listening;
      expect(handled.sort()).toEqual(["a", "b"]);
      expect(await queue.getDepth()).toEqual({ queued: 2, ready: 2, delayed: 0 });
    });
  });
});

async function createSecondConnection(handle: DatabaseHandle & { url?: string }, dialect: string) {
  const { openDatabase } = await import("../../server/kernel/db/connect.ts");
  const url = (handle as { url: string }).url;
  return dialect === "postgres"
    ? openDatabase({ dialect: "postgres", connectionString: url })
    : openDatabase({ dialect: "sqlite", filename: url.slice("file:".length) });
}
