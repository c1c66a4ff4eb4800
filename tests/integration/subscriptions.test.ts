import { afterEach, describe, expect, it } from "vitest";
import { DomainError } from "#domain/errors.ts";
import { CONFIRM_LINK_TTL_MS, SUBSCRIBE_ANSWER, type SubscriberState } from "#domain/newsletter.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import { createMigrator, migrateToLatest } from "../../server/kernel/db/migrate.ts";
import * as subscribers from "../../server/newsletter/repositories/subscribers.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { composePostEmail } from "../../server/newsletter/email.ts";
import { createOutbox, type Outbox } from "../../server/newsletter/outbox.ts";
import { createRateLimiter } from "../../server/kernel/rate-limit.ts";
import {
  createSubscriptionService,
  type SingleEmail,
  SUBSCRIBE_ADDRESS_LIMIT,
  SUBSCRIBE_EMAIL_LIMIT,
  createSubscriptionTokens,
  type Visitor,
} from "../../server/newsletter/subscriptions.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { recordStatements } from "../support/statements.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("subscribers repository on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const at = () => blog.clock.now().toISOString();

  it("stores an address trimmed with its domain lower-cased, and finds it whatever its case", async () => {
    const { subscriber, created } = await subscribers.requestSubscription(blog.handle.db, {
      email: "  Ada.Lovelace@Example.COM ",
      source: "form",
      now: at(),
    });
    expect(created).toBe(true);
    expect(subscriber).toMatchObject({ email: "Ada.Lovelace@example.com", state: "pending", source: "form" });

    expect((await subscribers.findSubscriberByEmail(blog.handle.db, "Ada.Lovelace@EXAMPLE.com"))?.id).toBe(
      subscriber.id,
    );
    expect((await subscribers.findSubscriberByEmail(blog.handle.db, "ada.lovelace@example.com"))?.id).toBe(
      subscriber.id,
    );

    const again = await subscribers.requestSubscription(blog.handle.db, {
      email: "Ada.Lovelace@example.Com",
      source: "form",
      now: at(),
    });
    expect(again).toEqual({ subscriber, created: false });
  });

  it("merges the spellings of one mailbox already listed when upgrading, keeping the reader's latest word", async () => {
    const db = blog.handle.db;
    await createMigrator(db, dialect).migrateTo("0021-rate-limit-key-hashes");
    const row = (
      id: string,
      email: string,
      state: SubscriberState,
      times: { confirmed?: string; left?: string } = {},
    ) => ({
      id,
      email,
      state,
      source: "form" as const,
      created_at: `2024-01-0${id.slice(-1)}T00:00:00.000Z`,
      confirmed_at: times.confirmed ?? null,
      unsubscribed_at: times.left ?? null,
    });
    await db
      .insertInto("subscribers")
      .values([
        // Confirmed, then left under another spelling: the unsubscription stands.
        row("left-1", "Ann@example.com", "active", { confirmed: "2024-02-01T00:00:00.000Z" }),
        row("left-2", "ann@example.com", "unsubscribed", {
          confirmed: "2024-01-15T00:00:00.000Z",
          left: "2024-03-01T00:00:00.000Z",
        }),
        // Left, then confirmed again under another spelling: active.
        row("back-1", "Bob@example.com", "unsubscribed", {
          confirmed: "2024-01-15T00:00:00.000Z",
          left: "2024-02-01T00:00:00.000Z",
        }),
        row("back-2", "BOB@example.com", "active", { confirmed: "2024-03-01T00:00:00.000Z" }),
        // Two that never confirmed: the older stays.
        row("wait-1", "cy@example.com", "pending"),
        row("wait-2", "Cy@example.com", "pending"),
        row("solo-1", "Dee@example.com", "active", { confirmed: "2024-01-02T00:00:00.000Z" }),
      ])
      .execute();
    await migrateToLatest(db, dialect);
    const kept = await db.selectFrom("subscribers").select(["id", "email", "state"]).orderBy("id").execute();
    expect(kept).toEqual([
      { id: "back-2", email: "BOB@example.com", state: "active" },
      { id: "left-2", email: "ann@example.com", state: "unsubscribed" },
      { id: "solo-1", email: "Dee@example.com", state: "active" },
      { id: "wait-1", email: "cy@example.com", state: "pending" },
    ]);
    await expect(
      db
        .insertInto("subscribers")
        .values(row("solo-2", "DEE@example.com", "pending"))
        .execute(),
    ).rejects.toThrow();
  });

  it("confirms and unsubscribes once, keeping the first time", async () => {
    const db = blog.handle.db;
    const { subscriber } = await subscribers.requestSubscription(db, {
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
      const { subscriber } = await subscribers.requestSubscription(db, {
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

const SECRET = "the session secret of this test blog, long enough";
const SITE = { title: "Field Notes", url: "https://notes.example/journal" };
const HOUR = 60 * 60 * 1000;

/** The answer a call gives, or the domain error it refuses with. */
async function outcome<T>(work: Promise<T>): Promise<T | { code: string; status: number; message: string }> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, status: error.status, message: error.message };
  }
}

describe.each(testDialects())("subscribing on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  /** The service over the test database, with an outbox that keeps what it is given. */
  function subscriptions({ emailOn = true, db = blog.handle.db } = {}) {
    const outbox: SingleEmail[] = [];
    const service = createSubscriptionService({
      db,
      now: blog.clock.now,
      secret: SECRET,
      limiter: createRateLimiter({ db, now: blog.clock.now, secret: SECRET }),
      readSite: async () => SITE,
      enqueueSingle: emailOn
        ? async (email) => {
            outbox.push(email);
          }
        : undefined,
    });
    const confirmToken = (email: SingleEmail) => {
      const link = /Confirm: (\S+)/.exec(email.text)![1]!;
      expect(link.startsWith("https://notes.example/journal/subscribe/confirm?token=")).toBe(true);
      return new URL(link).searchParams.get("token")!;
    };
    /** A subscription and then the outbox worker's tick, which queues the confirmation it asked for. */
    const subscribe = async (email: string, visitor?: Visitor) => {
      const answer = await service.subscribe(email, visitor);
      await service.sendRequestedConfirmations();
      return answer;
    };
    return { service, subscribe, outbox, confirmToken };
  }

  const visitor = (clientAddress = "203.0.113.7") => ({ clientAddress, honeypot: "" });

  it("answers the same whatever the address's state, and emails only new, pending and unsubscribed ones", async () => {
    const { service, subscribe, outbox, confirmToken } = subscriptions();
    expect(await subscribe(" Reader@Mail.EXAMPLE ", visitor())).toBe(SUBSCRIBE_ANSWER);
    expect(outbox.map((email) => [email.to, email.subject])).toEqual([
      ["Reader@mail.example", "Confirm your subscription to Field Notes"],
    ]);
    expect(await subscribers.findSubscriberByEmail(blog.handle.db, "Reader@mail.example")).toMatchObject({
      state: "pending",
      source: "form",
    });

    expect(await subscribe("Reader@mail.example", visitor())).toBe(SUBSCRIBE_ANSWER);
    expect(outbox).toHaveLength(2);

    expect(await service.confirm(confirmToken(outbox[1]!))).toEqual({ email: "Reader@mail.example", state: "active" });
    expect(await subscribe("Reader@mail.example", visitor())).toBe(SUBSCRIBE_ANSWER);
    expect(outbox).toHaveLength(2);

    const subscriber = (await subscribers.findSubscriberByEmail(blog.handle.db, "Reader@mail.example"))!;
    await service.unsubscribe(service.unsubscribeToken(subscriber.id));
    expect(await subscribe("Reader@mail.example", visitor())).toBe(SUBSCRIBE_ANSWER);
    expect(outbox).toHaveLength(3);
    expect(await service.confirm(confirmToken(outbox[2]!))).toEqual({ email: "Reader@mail.example", state: "active" });
  });

  it("confirms once, idempotently, for 7 days; an old link cannot undo an unsubscription", async () => {
    const { service, subscribe, outbox, confirmToken } = subscriptions();
    await subscribe("a@example.com", visitor());
    const token = confirmToken(outbox[0]!);
    expect(await service.confirm(token)).toEqual({ email: "a@example.com", state: "active" });
    expect(await service.confirm(token)).toEqual({ email: "a@example.com", state: "active" });

    const subscriber = (await subscribers.findSubscriberByEmail(blog.handle.db, "a@example.com"))!;
    blog.clock.advance(1000);
    await service.unsubscribe(service.unsubscribeToken(subscriber.id));
    expect(await outcome(service.confirm(token))).toMatchObject({ code: "SUBSCRIPTION_LINK_EXPIRED", status: 410 });
    expect((await subscribers.findSubscriberById(blog.handle.db, subscriber.id))?.state).toBe("unsubscribed");

    await subscribe("late@example.com", visitor());
    blog.clock.advance(CONFIRM_LINK_TTL_MS);
    expect(await outcome(service.confirm(confirmToken(outbox[1]!)))).toEqual({
      code: "SUBSCRIPTION_LINK_EXPIRED",
      status: 410,
      message: "This confirmation link has expired. Subscribe again to get a new one.",
    });
    expect((await subscribers.findSubscriberByEmail(blog.handle.db, "late@example.com"))?.state).toBe("pending");
  });

  it("unsubscribes with one call, again and again, even once the subscriber is deleted", async () => {
    const { service } = subscriptions();
    const { subscriber } = await subscribers.requestSubscription(blog.handle.db, {
      email: "b@example.com",
      source: "admin",
      now: blog.clock.now().toISOString(),
    });
    const token = service.unsubscribeToken(subscriber.id);
    await service.unsubscribe(token);
    await service.unsubscribe(token);
    expect(await subscribers.findSubscriberById(blog.handle.db, subscriber.id)).toMatchObject({
      state: "unsubscribed",
      unsubscribedAt: blog.clock.now().toISOString(),
    });
    await subscribers.deleteSubscriber(blog.handle.db, subscriber.id);
    await expect(service.unsubscribe(token)).resolves.toBeUndefined();
    expect(await outcome(service.unsubscribe(`${token}x`))).toMatchObject({
      code: "SUBSCRIPTION_LINK_INVALID",
      status: 400,
    });
    expect(await outcome(service.confirm(service.confirmToken(subscriber.id)))).toMatchObject({
      code: "SUBSCRIPTION_LINK_INVALID",
      status: 400,
    });
  });

  it("limits attempts per client address and confirmation emails per address, keeping no address in the counters", async () => {
    const { subscribe, outbox } = subscriptions();
    for (let attempt = 1; attempt <= SUBSCRIBE_EMAIL_LIMIT.maxHits + 1; attempt += 1) {
      expect(await subscribe("target@example.com", visitor(`198.51.100.${attempt}`))).toBe(SUBSCRIBE_ANSWER);
    }
    expect(outbox).toHaveLength(SUBSCRIBE_EMAIL_LIMIT.maxHits);
    blog.clock.advance(SUBSCRIBE_EMAIL_LIMIT.windowMs);
    await subscribe("target@example.com", visitor("198.51.100.99"));
    expect(outbox).toHaveLength(SUBSCRIBE_EMAIL_LIMIT.maxHits + 1);

    for (let attempt = 1; attempt <= SUBSCRIBE_ADDRESS_LIMIT.maxHits; attempt += 1) {
      await subscribe(`reader${attempt}@example.com`, visitor());
    }
    expect(await outcome(subscribe("one-more@example.com", visitor()))).toEqual({
      code: "RATE_LIMITED",
      status: 429,
      message: "Too many attempts",
    });
    blog.clock.advance(HOUR);
    expect(await subscribe("one-more@example.com", visitor())).toBe(SUBSCRIBE_ANSWER);

    const keys = await blog.handle.db.selectFrom("rate_limits").select("key").execute();
    expect(keys.map(({ key }) => key).filter((key) => key.includes("example.com"))).toEqual([]);
  });

  it("counts an address in any case as one mailbox: one subscriber, three confirmations a day, sent as typed", async () => {
    const { subscribe, outbox } = subscriptions();
    const spellings = [
      "Victim@Mail.example",
      "victim@mail.example",
      "VICTIM@MAIL.EXAMPLE",
      "vIctim@mail.example",
      "victiM@mail.example",
    ];
    for (const [index, spelling] of spellings.entries()) {
      expect(await subscribe(` ${spelling} `, visitor(`198.51.100.${index + 1}`))).toBe(SUBSCRIBE_ANSWER);
    }
    expect(outbox.map((email) => email.to)).toEqual([
      "Victim@mail.example",
      "Victim@mail.example",
      "Victim@mail.example",
    ]);
    expect(await subscribers.countSubscribersByState(blog.handle.db)).toMatchObject({ pending: 1 });
  });

  it("answers every address with the same statements, whatever its state, and queues the email afterwards", async () => {
    const recorded = recordStatements(blog.handle.db);
    const { service, outbox, confirmToken } = subscriptions({ db: recorded.db });
    const statementsOf = async (email: string) => {
      recorded.statements.length = 0;
      await service.subscribe(email, visitor());
      return [...recorded.statements];
    };
    await service.subscribe("pending@example.com", visitor());
    await service.subscribe("active@example.com", visitor());
    await service.subscribe("gone@example.com", visitor());
    await service.sendRequestedConfirmations();
    await service.confirm(confirmToken(outbox.find((email) => email.to === "active@example.com")!));
    const gone = (await subscribers.findSubscriberByEmail(blog.handle.db, "gone@example.com"))!;
    await service.unsubscribe(service.unsubscribeToken(gone.id));
    expect(outbox).toHaveLength(3);

    const asNew = await statementsOf("new@example.com");
    expect(asNew.length).toBeLessThanOrEqual(2);
    expect(await statementsOf("Active@example.com")).toEqual(asNew);
    expect(await statementsOf("pending@example.com")).toEqual(asNew);
    expect(await statementsOf("gone@example.com")).toEqual(asNew);
    expect(outbox).toHaveLength(3);

    // The worker's tick: the new, pending and unsubscribed addresses get their email, the active one none.
    await service.sendRequestedConfirmations();
    expect(
      outbox
        .slice(3)
        .map((email) => email.to)
        .sort(),
    ).toEqual(["gone@example.com", "new@example.com", "pending@example.com"]);
    await service.sendRequestedConfirmations();
    expect(outbox).toHaveLength(6);
  });

  it("refuses an invalid address with its message, takes nothing from a bot, and collects nothing while email is off", async () => {
    const { subscribe, outbox } = subscriptions();
    expect(await outcome(subscribe("not an address", visitor()))).toEqual({
      code: "EMAIL_INVALID",
      status: 400,
      message: "Please enter a valid email address",
    });
    expect(await subscribe("bot@example.com", { clientAddress: "192.0.2.1", honeypot: "http://spam" })).toBe(
      SUBSCRIBE_ANSWER,
    );
    expect(outbox).toEqual([]);
    expect(await subscribers.findSubscriberByEmail(blog.handle.db, "bot@example.com")).toBeUndefined();

    const off = subscriptions({ emailOn: false });
    expect(await outcome(off.subscribe("c@example.com", visitor()))).toEqual({
      code: "SUBSCRIPTIONS_CLOSED",
      status: 403,
      message: "Subscriptions are not open yet",
    });
    expect(await subscribers.countSubscribersByState(blog.handle.db)).toMatchObject({ pending: 0 });
  });
});

describe.each(testDialects())("double opt-in through a real SMTP server on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const resources: { sink?: SmtpSink; mailer?: Mailer; outbox?: Outbox } = {};
  const workerErrors: unknown[] = [];
  afterEach(async () => {
    await resources.outbox?.stop();
    resources.mailer?.close();
    await resources.sink?.close();
    expect(workerErrors.splice(0)).toEqual([]);
  });

  async function start() {
    const sink = await startSmtpSink();
    const mailer = await createMailer({
      smtpUrl: sink.url,
      fromAddress: "news@notes.example",
      rate: 100,
    });
    const tokens = createSubscriptionTokens({ secret: SECRET, now: blog.clock.now });
    const outbox = createOutbox({
      db: blog.handle.db,
      dialect,
      now: blog.clock.now,
      unsubscribeUrl: (id) => absoluteUrl(SITE.url, `/unsubscribe?token=${tokens.unsubscribeToken(id)}`),
      readSender: async () => ({ name: SITE.title, replyTo: undefined }),
      tuning: { pollMs: 10 },
    });
    const service = createSubscriptionService({
      db: blog.handle.db,
      now: blog.clock.now,
      secret: SECRET,
      limiter: createRateLimiter({ db: blog.handle.db, now: blog.clock.now, secret: SECRET }),
      readSite: async () => SITE,
      enqueueSingle: outbox.enqueueSingle,
    });
    // As server.ts wires it: the worker's tick queues the confirmations subscriptions asked for.
    outbox.start(mailer, (error) => workerErrors.push(error), service.sendRequestedConfirmations);
    Object.assign(resources, { sink, mailer, outbox });
    return { sink, outbox, service };
  }

  it("sends a post only to the confirmed address, with a one-click unsubscribe that works", async () => {
    const { sink, outbox, service } = await start();
    await service.subscribe("confirmed@example.com", { clientAddress: "203.0.113.1" });
    await service.subscribe("never-confirms@example.com", { clientAddress: "203.0.113.2" });
    await sink.waitFor(2);
    const confirmation = sink.received.find((email) => email.to === "confirmed@example.com")!.parsed!;
    expect(confirmation.subject).toBe("Confirm your subscription to Field Notes");
    const link = /Confirm: (\S+)/.exec(confirmation.text!)![1]!;
    expect(await service.confirm(new URL(link).searchParams.get("token")!)).toMatchObject({ state: "active" });

    const [post] = await createPosts(blog.services, blog.clock, [{ title: "Herons at dawn" }]);
    const send = await outbox.enqueuePostSend({ postId: post!.id, ...composePostEmail(post!, SITE) });
    expect(send?.total).toBe(1);
    await sink.waitFor(3);
    const delivered = sink.received.slice(2);
    expect(delivered.map((email) => [email.to, email.parsed!.subject])).toEqual([
      ["confirmed@example.com", "Herons at dawn"],
    ]);
    const unsubscribeUrl = /Unsubscribe: (\S+)/.exec(delivered[0]!.parsed!.text!)![1]!;
    const header = delivered[0]!.parsed!.headerLines.find(({ key }) => key === "list-unsubscribe");
    expect(header?.line.replaceAll(/\r?\n[ \t]+/g, " ")).toContain(`<${unsubscribeUrl}>`);

    await service.unsubscribe(new URL(unsubscribeUrl).searchParams.get("token")!);
    expect(await subscribers.countSubscribersByState(blog.handle.db)).toMatchObject({
      active: 0,
      pending: 1,
      unsubscribed: 1,
    });
  });
});
