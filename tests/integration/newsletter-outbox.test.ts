import type { ParsedMail } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SubscriberState } from "#domain/newsletter.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { claimDue } from "../../server/kernel/repositories/durable-queue.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createOutbox, type Outbox, UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/outbox.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { type TestBlog, useTestBlog } from "../support/test-blog.ts";

const FROM = { fromAddress: "news@blog.example" };
const readSender = async () => ({ name: "Heron Notes", replyTo: undefined });
const unsubscribeUrl = (id: string) => `https://blog.example/unsubscribe?token=u.${id}&k=1`;
const POST_EMAIL = {
  subject: "A heron at dawn",
  html: `<p>Herons wait.</p><p><a href="${UNSUBSCRIBE_PLACEHOLDER}">Unsubscribe</a></p>`,
  text: `Herons wait.\n\nUnsubscribe: ${UNSUBSCRIBE_PLACEHOLDER}`,
};

async function addSubscribers(blog: TestBlog, subscribers: [email: string, state: SubscriberState][]) {
  const at = blog.clock.now().toISOString();
  const rows = subscribers.map(([email, state], index) => ({
    id: `sub-${index}-${email.split("@")[0]}`,
    email,
    state,
    source: "admin" as const,
    created_at: at,
    confirmed_at: state === "pending" ? null : at,
    unsubscribed_at: null,
  }));
  await blog.handle.db.insertInto("subscribers").values(rows).execute();
  return Object.fromEntries(rows.map((row) => [row.email, row.id]));
}

/** A header as it was written, unfolded. */
function headerLine(email: ParsedMail, key: string): string | undefined {
  return email.headerLines.find((header) => header.key === key)?.line.replaceAll(/\r?\n[ \t]+/g, " ");
}

async function waitUntilFinished(outbox: Outbox, sendId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await outbox.progress(sendId);
    if (progress?.state !== "sending") return progress;
    if (Date.now() > deadline) throw new Error(`send still going: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(testDialects())("the newsletter outbox on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  let sink: SmtpSink;
  let mailer: Mailer;
  let outbox: Outbox;
  const errors: unknown[] = [];

  const makeOutbox = (tuning = {}) =>
    createOutbox({
      db: blog.handle.db,
      dialect,
      now: blog.clock.now,
      unsubscribeUrl,
      readSender,
      tuning: { pollMs: 10, retryBaseMs: 60_000, ...tuning },
    });

  beforeEach(async () => {
    sink = await startSmtpSink();
    mailer = await createMailer({ smtpUrl: sink.url, ...FROM, rate: 100 });
    outbox = makeOutbox();
    errors.length = 0;
  });
  afterEach(async () => {
    await outbox?.stop();
    mailer?.close();
    await sink?.close();
    expect(errors).toEqual([]);
  });
  const start = () => outbox.start(mailer, (error) => errors.push(error));

  it("emails a post once to each active subscriber, with their own unsubscribe link", async () => {
    const ids = await addSubscribers(blog, [
      ["ada@example.com", "active"],
      ["bea@example.com", "active"],
      ["cal@example.com", "pending"],
      ["dot@example.com", "unsubscribed"],
      ["eve@example.com", "bounced"],
      ["fay@example.com", "active"],
    ]);
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const queued = await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL });
    expect(queued).toMatchObject({ total: 3 });
    expect(await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL })).toBeNull();

    start();
    const progress = await waitUntilFinished(outbox, queued!.sendId);
    expect(progress).toMatchObject({ state: "done", total: 3, sent: 3, failed: 0, postId: post!.id });
    expect(sink.received.map((email) => email.to).toSorted()).toEqual([
      "ada@example.com",
      "bea@example.com",
      "fay@example.com",
    ]);
    for (const { to, parsed } of sink.received) {
      const url = unsubscribeUrl(ids[to]!);
      expect(parsed!.subject).toBe("A heron at dawn");
      expect(parsed!.from?.text).toBe('"Heron Notes" <news@blog.example>');
      // Only the https one-click address: no mailbox reads a mailto: (docs/decisions/0014).
      expect(headerLine(parsed!, "list-unsubscribe")).toBe(`List-Unsubscribe: <${url}>`);
      expect(headerLine(parsed!, "list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(parsed!.text).toBe(`Herons wait.\n\nUnsubscribe: ${url}`);
      expect(parsed!.html).toContain(`<a href="${url.replace("&", "&amp;")}">Unsubscribe</a>`);
      expect(parsed!.html).not.toContain(UNSUBSCRIBE_PLACEHOLDER);
    }
  });

  it("sends a single email without list headers and finishes its send", async () => {
    start();
    const sendId = await outbox.enqueueSingle({
      to: "new@example.com",
      subject: "Confirm",
      html: "<p>Confirm</p>",
      text: "Confirm",
    });
    expect(await waitUntilFinished(outbox, sendId)).toMatchObject({ kind: "single", state: "done", sent: 1 });
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]!.to).toBe("new@example.com");
    expect(headerLine(sink.received[0]!.parsed!, "list-unsubscribe")).toBeUndefined();
  });

  it("tries a 451 again after its wait, and then delivers it once", async () => {
    await addSubscribers(blog, [
      ["ada@example.com", "active"],
      ["busy@example.com", "active"],
    ]);
    let refusals = 0;
    sink.refuse = (to) =>
      to === "busy@example.com" && refusals++ === 0 ? { code: 451, message: "Try again later" } : undefined;
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const { sendId } = (await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL }))!;
    start();
    await sink.waitFor(1);
    await expect.poll(() => refusals).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outbox.progress(sendId)).toMatchObject({ state: "sending", sent: 1, failed: 0 });

    blog.clock.advance(60_000);
    expect(await waitUntilFinished(outbox, sendId)).toMatchObject({ state: "done", sent: 2, failed: 0 });
    expect(sink.received.map((email) => email.to).toSorted()).toEqual(["ada@example.com", "busy@example.com"]);
  });

  it("fails a 550 at once, counts the bounce, and stops emailing an address after three", async () => {
    const ids = await addSubscribers(blog, [
      ["ada@example.com", "active"],
      ["gone@example.com", "active"],
    ]);
    sink.refuse = (to) => (to === "gone@example.com" ? { code: 550, message: "No such user" } : undefined);
    start();
    const posts = await createPosts(blog.services, blog.clock, [{}, {}, {}, {}]);
    for (const post of posts.slice(0, 3)) {
      const { sendId } = (await outbox.enqueuePostSend({ postId: post.id, ...POST_EMAIL }))!;
      expect(await waitUntilFinished(outbox, sendId)).toMatchObject({ state: "done", total: 2, sent: 1, failed: 1 });
    }
    const gone = await blog.handle.db
      .selectFrom("subscribers")
      .select(["state", "bounces"])
      .where("id", "=", ids["gone@example.com"]!)
      .executeTakeFirstOrThrow();
    expect(gone).toEqual({ state: "bounced", bounces: 3 });

    const { sendId, total } = (await outbox.enqueuePostSend({ postId: posts[3]!.id, ...POST_EMAIL }))!;
    expect(total).toBe(1);
    await waitUntilFinished(outbox, sendId);
    expect(sink.received.filter((email) => email.to === "gone@example.com")).toHaveLength(0);
    expect(sink.received.filter((email) => email.to === "ada@example.com")).toHaveLength(4);
  });

  it("stops a cancelled send: what was with SMTP counts, nothing more goes out", async () => {
    await addSubscribers(
      blog,
      Array.from({ length: 20 }, (_, index) => [`reader${index}@example.com`, "active"] as [string, SubscriberState]),
    );
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const { sendId } = (await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL }))!;
    let answer = () => {};
    sink.hold = new Promise((resolve) => (answer = resolve));
    outbox = makeOutbox({ batchSize: 2 });
    start();
    // The first batch is with the SMTP server, not yet answered, when the writer cancels.
    await sink.waitFor(2);
    expect(await outbox.cancel(sendId)).toBe(true);
    expect(await outbox.cancel(sendId)).toBe(false);
    answer();
    await expect.poll(async () => (await outbox.progress(sendId))?.sent).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await outbox.progress(sendId)).toMatchObject({ state: "cancelled", sent: 2, failed: 0 });
    expect(sink.received).toHaveLength(2);
  });

  it("leaves out a subscriber who unsubscribed after the send was queued", async () => {
    const ids = await addSubscribers(blog, [
      ["ada@example.com", "active"],
      ["bea@example.com", "active"],
    ]);
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const { sendId } = (await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL }))!;
    await blog.handle.db
      .updateTable("subscribers")
      .set({ state: "unsubscribed" })
      .where("id", "=", ids["bea@example.com"]!)
      .execute();
    start();
    expect(await waitUntilFinished(outbox, sendId)).toMatchObject({ state: "done", total: 1, sent: 1 });
    expect(sink.received.map((email) => email.to)).toEqual(["ada@example.com"]);
  });

  it("takes over deliveries a crashed worker had claimed, once their lease ran out", async () => {
    await addSubscribers(
      blog,
      Array.from({ length: 30 }, (_, index) => [`reader${index}@example.com`, "active"] as [string, SubscriberState]),
    );
    const [post] = await createPosts(blog.services, blog.clock, [{}]);
    const { sendId } = (await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL }))!;
    // A worker that claimed ten and died before sending or recording them.
    const at = blog.clock.now();
    const held = await claimDue(blog.handle.db, dialect, "email_deliveries", {
      at: at.toISOString(),
      leaseUntil: new Date(at.getTime() + 30_000).toISOString(),
      limit: 10,
    });
    expect(held).toHaveLength(10);
    blog.clock.advance(30_001);
    start();
    expect(await waitUntilFinished(outbox, sendId)).toMatchObject({ state: "done", total: 30, sent: 30 });
    const recipients = sink.received.map((email) => email.to);
    expect(recipients).toHaveLength(30);
    expect(new Set(recipients).size).toBe(30);
  });

  // Several app servers share only a PostgreSQL database; a SQLite file has one server.
  it.runIf(dialect === "postgres")(
    "shares a send between two servers' workers without sending anything twice",
    async () => {
      await addSubscribers(
        blog,
        Array.from(
          { length: 300 },
          (_, index) => [`reader${index}@example.com`, "active"] as [string, SubscriberState],
        ),
      );
      const [post] = await createPosts(blog.services, blog.clock, [{}]);
      const { sendId } = (await outbox.enqueuePostSend({ postId: post!.id, ...POST_EMAIL }))!;
      const { url } = blog.handle as DatabaseHandle & { url: string };
      const second = await openDatabase({ dialect: "postgres", connectionString: url });
      const other = createOutbox({
        db: second.db,
        dialect,
        now: blog.clock.now,
        unsubscribeUrl,
        readSender,
        tuning: { pollMs: 10, batchSize: 10 },
      });
      outbox = makeOutbox({ batchSize: 10 });
      try {
        other.start(mailer, (error) => errors.push(error));
        start();
        expect(await waitUntilFinished(outbox, sendId, 30_000)).toMatchObject({ state: "done", sent: 300 });
      } finally {
        await other.stop();
        await second.close();
      }
      const recipients = sink.received.map((email) => email.to);
      expect(recipients).toHaveLength(300);
      expect(new Set(recipients).size).toBe(300);
    },
  );
});
