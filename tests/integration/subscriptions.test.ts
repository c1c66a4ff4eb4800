import { describe, expect, it } from "vitest";
import * as subscribers from "../../server/repositories/subscribers.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("subscribers repository on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const at = () => blog.clock.now().toISOString();

  it("stores an address trimmed with its domain lower-cased, and finds it whatever the domain's case", async () => {
    const { subscriber, created } = await subscribers.insertPendingSubscriber(blog.handle.db, {
      email: "  Ada.Lovelace@Example.COM ",
      source: "form",
      now: at(),
    });
    expect(created).toBe(true);
    expect(subscriber).toMatchObject({ email: "Ada.Lovelace@example.com", state: "pending", source: "form" });

    expect((await subscribers.findSubscriberByEmail(blog.handle.db, "Ada.Lovelace@EXAMPLE.com"))?.id).toBe(
      subscriber.id,
    );
    expect(await subscribers.findSubscriberByEmail(blog.handle.db, "ada.lovelace@example.com")).toBeUndefined();

    const again = await subscribers.insertPendingSubscriber(blog.handle.db, {
      email: "Ada.Lovelace@example.Com",
      source: "form",
      now: at(),
    });
    expect(again).toEqual({ subscriber, created: false });
  });

  it("confirms and unsubscribes once, keeping the first time", async () => {
    const db = blog.handle.db;
    const { subscriber } = await subscribers.insertPendingSubscriber(db, {
      email: "a@example.com",
      source: "form",
      now: at(),
    });
    const confirmedAt = at();
    expect(await subscribers.confirmSubscriber(db, subscriber.id, { now: confirmedAt, from: ["pending"] })).toBe(true);
    blog.clock.advance(1000);
    expect(await subscribers.confirmSubscriber(db, subscriber.id, { now: at(), from: ["pending"] })).toBe(false);
    expect(await subscribers.findSubscriberById(db, subscriber.id)).toMatchObject({ state: "active", confirmedAt });

    const unsubscribedAt = at();
    expect(await subscribers.unsubscribeSubscriber(db, subscriber.id, unsubscribedAt)).toBe(true);
    blog.clock.advance(1000);
    expect(await subscribers.unsubscribeSubscriber(db, subscriber.id, at())).toBe(false);
    expect(await subscribers.findSubscriberById(db, subscriber.id)).toMatchObject({
      state: "unsubscribed",
      unsubscribedAt,
    });
  });

  it("counts every state, lists a state newest first in pages, searches, and deletes for good", async () => {
    const db = blog.handle.db;
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      blog.clock.advance(1000);
      const { subscriber } = await subscribers.insertPendingSubscriber(db, {
        email: `reader${index}@${index % 2 ? "odd" : "even"}.example`,
        source: "import",
        now: at(),
      });
      ids.push(subscriber.id);
    }
    await subscribers.confirmSubscriber(db, ids[0]!, { now: at(), from: ["pending"] });
    await subscribers.unsubscribeSubscriber(db, ids[1]!, at());

    expect(await subscribers.countSubscribersByState(db)).toEqual({
      pending: 5,
      active: 1,
      unsubscribed: 1,
      bounced: 0,
    });

    const first = await subscribers.listSubscribers(db, { state: "pending", limit: 2 });
    expect(first.items.map((item) => item.email)).toEqual(["reader6@even.example", "reader5@odd.example"]);
    const second = await subscribers.listSubscribers(db, { state: "pending", limit: 2, after: first.next });
    expect(second.items.map((item) => item.email)).toEqual(["reader4@even.example", "reader3@odd.example"]);
    const last = await subscribers.listSubscribers(db, { state: "pending", limit: 2, after: second.next });
    expect(last.items.map((item) => item.email)).toEqual(["reader2@even.example"]);
    expect(last.next).toBeUndefined();

    const found = await subscribers.listSubscribers(db, { state: "pending", search: "ODD.ex", limit: 50 });
    expect(found.items.map((item) => item.email)).toEqual(["reader5@odd.example", "reader3@odd.example"]);
    const literal = await subscribers.listSubscribers(db, { state: "pending", search: "reader_", limit: 50 });
    expect(literal.items).toEqual([]);

    expect(await subscribers.deleteSubscriber(db, ids[6]!)).toBe(true);
    expect(await subscribers.deleteSubscriber(db, ids[6]!)).toBe(false);
    expect(await subscribers.findSubscriberById(db, ids[6]!)).toBeUndefined();
  });
});
