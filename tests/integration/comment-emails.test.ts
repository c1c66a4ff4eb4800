import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { action as unsubscribeAction } from "../../app/routes/site/unsubscribe-replies.tsx";
import { action as postAction } from "../../app/routes/site/post.tsx";
import { REPLY_EMAILS_PER_DAY } from "../../server/comment-emails/index.ts";
import { createServices, type Services } from "../../server/composition.ts";
import type { DatabaseHandle, Dialect } from "../../server/kernel/db/connect.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, createPosts, TEST_PASSWORD_COST } from "../support/factories.ts";
import { createRouteTestContext, postForm, routeArgs, settle } from "../support/route-context.ts";
import { recordStatements } from "../support/statements.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

const OWNER_EMAIL = "owner@blog.example";
const READER_EMAIL = "Reader.One@Mail.example";
const visitor = (clientAddress: string) => ({ clientAddress });

function headerLine(email: ParsedMail, key: string): string | undefined {
  return email.headerLines.find((header) => header.key === key)?.line.replaceAll(/\r?\n[ \t]+/g, " ");
}

describe.each(testDialects())("comment emails on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let clock: ReturnType<typeof createManualClock>;
  let sink: SmtpSink;
  let mailer: Mailer;
  const servers: Services[] = [];
  const errors: unknown[] = [];

  /** One app server over the shared database, with email on and its outbox worker running. */
  function startServer(db = handle.db): Services {
    const services = createServices({
      db,
      dialect: dialect as Dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: "a test secret of the server, long enough",
      siteUrl: "https://blog.example",
      emailOn: true,
      outboxTuning: { pollMs: 10 },
    });
    services.outbox.start(mailer, (error) => errors.push(error));
    servers.push(services);
    return services;
  }

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    sink = await startSmtpSink();
    mailer = await createMailer({ smtpUrl: sink.url, fromAddress: "news@blog.example", rate: 100 });
    errors.length = 0;
  });
  afterEach(async () => {
    for (const services of servers.splice(0)) await services.outbox.stop();
    mailer?.close();
    await sink?.close();
    await handle?.close();
    expect(errors).toEqual([]);
  });

  async function withOwner(services: Services): Promise<void> {
    const token = await services.setup.issueSetupToken();
    await services.setup.createFirstAdmin(token!, OWNER_EMAIL, "a long enough password");
  }
  const mailTo = (address: string): ParsedMail[] =>
    sink.received.filter((caught) => caught.to.toLowerCase() === address.toLowerCase()).map((caught) => caught.parsed!);
  /** A reply, as the reply form (issue 34's threads) stores it: a comment naming its parent. */
  async function reply(services: Services, parentId: string, postId: string, content: string, client: string) {
    const held = await services.comments.addComment(
      postId,
      { author: "Bea", content: `${content} https://a.example https://b.example https://c.example` },
      visitor(client),
    );
    await handle.db.updateTable("comments").set({ parent_id: parentId }).where("id", "=", held.id).execute();
    await services.comments.moderate("approve", [held.id]);
    return held;
  }

  it("emails the writer once per new comment, a held one with a link to moderate it", async () => {
    const services = startServer();
    await withOwner(services);
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "Lovely <b>birds</b>" },
      visitor("203.0.113.1"),
    );
    clock.advance(20_000);
    await services.comments.addComment(
      post!.id,
      { author: "Cy", content: "casino https://a.example https://b.example https://c.example" },
      visitor("203.0.113.2"),
    );
    await sink.waitFor(2);
    const [published, held] = mailTo(OWNER_EMAIL);
    expect(published!.subject).toBe("New comment on “Herons at dawn”");
    expect(published!.text).toContain("Lovely <b>birds</b>");
    expect(published!.html).toContain("Lovely &#60;b&#62;birds&#60;/b&#62;");
    expect(held!.subject).toBe("A comment awaits moderation on “Herons at dawn”");
    expect(held!.html).toContain("https://blog.example/admin/comments?status=pending");
    // Approving the held one later sends nothing more to the writer.
    const [pending] = (await services.comments.listForModeration({ status: "pending" })).comments;
    await services.comments.moderate("approve", [pending!.id]);
    await services.outbox.stop();
    expect(sink.received).toHaveLength(2);
  });

  it("sends the digest once a day, from one of two servers, instead of one email per comment", async () => {
    const [one, two] = [startServer(), startServer()];
    await withOwner(one);
    await one.commentEmails.saveSettings({ writerEmails: "digest" });
    await two.settings.checkAll();
    // The first look marks where the digest starts.
    expect(await one.commentEmails.sendDigestIfDue()).toBe(false);
    const [post] = await createPosts(one, clock, [{ title: "Herons at dawn" }]);
    await one.comments.addComment(post!.id, { author: "Ann", content: "First" }, visitor("203.0.113.1"));
    clock.advance(20_000);
    await two.comments.addComment(post!.id, { author: "Cy", content: "Second" }, visitor("203.0.113.2"));
    // Same day: nothing yet, however often either server looks.
    expect(await Promise.all([one.commentEmails.sendDigestIfDue(), two.commentEmails.sendDigestIfDue()])).toEqual([
      false,
      false,
    ]);
    clock.advance(24 * 60 * 60 * 1000);
    const looks = await Promise.all([one.commentEmails.sendDigestIfDue(), two.commentEmails.sendDigestIfDue()]);
    expect(looks.filter(Boolean)).toHaveLength(1);
    await sink.waitFor(1);
    expect(await Promise.all([one.commentEmails.sendDigestIfDue(), two.commentEmails.sendDigestIfDue()])).toEqual([
      false,
      false,
    ]);
    await one.outbox.stop();
    await two.outbox.stop();
    expect(sink.received).toHaveLength(1);
    const digest = sink.received[0]!.parsed!;
    expect(sink.received[0]!.to).toBe(OWNER_EMAIL);
    expect(digest.subject).toBe("2 new comments on Inkwell");
    expect(digest.text).toContain("First");
    expect(digest.text).toContain("Second");
  });

  it("starts the digest afresh when it is turned off and on again", async () => {
    const services = startServer();
    await withOwner(services);
    await services.commentEmails.saveSettings({ writerEmails: "digest" });
    await services.commentEmails.sendDigestIfDue();
    await services.commentEmails.saveSettings({ writerEmails: "each" });
    clock.advance(3 * 24 * 60 * 60 * 1000);
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    await services.comments.addComment(post!.id, { author: "Ann", content: "Emailed at once" }, visitor("203.0.113.1"));
    await sink.waitFor(1);
    clock.advance(1000);
    await services.commentEmails.saveSettings({ writerEmails: "digest" });
    // Where the digest starts is now, not the last digest's day: the comment above is not repeated.
    expect(await services.commentEmails.sendDigestIfDue()).toBe(false);
    clock.advance(24 * 60 * 60 * 1000);
    expect(await services.commentEmails.sendDigestIfDue()).toBe(false);
    await services.outbox.stop();
    expect(sink.received).toHaveLength(1);
  });

  it("takes a comment with the writer's email and a reader's address in ten statements at most", async () => {
    const recorded = recordStatements(handle.db);
    const services = startServer(recorded.db);
    await withOwner(services);
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    // Settings read once before, as every server has them cached.
    await services.commentEmails.readSettings();
    await services.siteSettings.current();
    await services.outbox.stop();
    recorded.statements.length = 0;
    await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "Hello", replyEmail: READER_EMAIL },
      visitor("203.0.113.1"),
    );
    // The comment's own five (budget, post, policy, address history, insert), then its post's
    // title, the reader's address kept, the owner's address, and the email's send and delivery.
    expect(recorded.statements).toHaveLength(10);
  });

  it("tells a reader of a reply once, and one click stops every reply email to their address", async () => {
    const services = startServer();
    await services.commentEmails.saveSettings({ writerEmails: "off" });
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    const asked = await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "Where was this?", replyEmail: READER_EMAIL },
      visitor("203.0.113.1"),
    );
    clock.advance(20_000);
    const second = await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "And when?", replyEmail: READER_EMAIL.toLowerCase() },
      visitor("203.0.113.1"),
    );
    clock.advance(20_000);
    const answer = await reply(services, asked.id, post!.id, "By the river", "203.0.113.9");
    await sink.waitFor(1);
    const [told] = mailTo(READER_EMAIL);
    expect(told!.subject).toBe("Bea replied to your comment on “Herons at dawn”");
    expect(told!.text).toContain("Where was this?");
    expect(told!.text).toContain("By the river");
    expect(told!.html).toContain(`https://blog.example/blog/${post!.slug}#comment-${answer.id}`);
    expect(headerLine(told!, "list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const unsubscribeUrl = /<([^>]+)>/.exec(headerLine(told!, "list-unsubscribe")!)![1]!;
    expect(unsubscribeUrl).toMatch(/^https:\/\/blog\.example\/unsubscribe\/replies\?token=/);
    expect(told!.html).toContain(unsubscribeUrl.replaceAll("&", "&amp;"));

    // Approving it again (unapproved, approved) tells nobody twice.
    await services.comments.moderate("unapprove", [answer.id]);
    await services.comments.moderate("approve", [answer.id]);

    // The mail provider's one-click POST: no cookie, the token alone.
    const { context } = createRouteTestContext(services);
    const request = new Request(unsubscribeUrl, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(await settle(() => unsubscribeAction(routeArgs(request, context)))).toMatchObject({
      status: 200,
      body: { unsubscribed: true },
    });
    expect(await settle(() => unsubscribeAction(routeArgs(request, context)))).toMatchObject({ status: 200 });
    // Neither comment left with that address keeps it, and replies to either are told to nobody.
    expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toEqual([]);
    await reply(services, second.id, post!.id, "Last spring", "203.0.113.10");
    await reply(services, asked.id, post!.id, "Near the bridge", "203.0.113.11");
    // A later comment with that address keeps nothing either.
    clock.advance(20_000);
    await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "Thanks!", replyEmail: READER_EMAIL },
      visitor("203.0.113.1"),
    );
    expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toEqual([]);
    await services.outbox.stop();
    expect(sink.received).toHaveLength(1);

    const forged = new Request("https://blog.example/unsubscribe/replies?token=r.abc.forged", { method: "POST" });
    expect(await settle(() => unsubscribeAction(routeArgs(forged, context)))).toMatchObject({ status: 400 });
  });

  it("sends one address at most REPLY_EMAILS_PER_DAY reply emails a day, and none after its comment is deleted", async () => {
    const services = startServer();
    await services.commentEmails.saveSettings({ writerEmails: "off" });
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    const asked = await services.comments.addComment(
      post!.id,
      { author: "Ann", content: "Tell me", replyEmail: READER_EMAIL },
      visitor("203.0.113.1"),
    );
    for (let index = 0; index <= REPLY_EMAILS_PER_DAY; index += 1) {
      clock.advance(1000);
      await reply(services, asked.id, post!.id, `Reply ${index}`, `198.51.100.${index + 1}`);
    }
    await sink.waitFor(REPLY_EMAILS_PER_DAY);
    // A day later the count has room again.
    clock.advance(24 * 60 * 60 * 1000);
    await reply(services, asked.id, post!.id, "A day later", "198.51.100.200");
    await sink.waitFor(REPLY_EMAILS_PER_DAY + 1);
    // Deleting the comment deletes its address: later replies are told to nobody.
    await services.comments.moderate("delete", [asked.id]);
    expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toEqual([]);
    await services.outbox.stop();
    expect(sink.received).toHaveLength(REPLY_EMAILS_PER_DAY + 1);
    expect(sink.received.at(-1)!.parsed!.text).toContain("A day later");
  });

  it("keeps nothing for an empty address, and a given one only hashed and sealed, nowhere in clear", async () => {
    const services = startServer();
    await services.commentEmails.saveSettings({ writerEmails: "off" });
    const [post] = await createPosts(services, clock, [{ title: "Herons at dawn" }]);
    const { context } = createRouteTestContext(services, null, "203.0.113.1");
    const comment = (fields: Record<string, string>) =>
      settle(() =>
        postAction(
          routeArgs(postForm(`https://blog.example/blog/${post!.slug}`, fields), context, { slug: post!.slug }),
        ),
      );
    expect(await comment({ author: "Ann", content: "No address", replyEmail: "  " })).toMatchObject({ status: 303 });
    expect(await handle.db.selectFrom("comment_reply_addresses").selectAll().execute()).toEqual([]);
    expect(await comment({ author: "Ann", content: "Bad address", replyEmail: "not an address" })).toMatchObject({
      status: 400,
      body: { errors: { replyEmail: "Please enter a valid email address, or leave it empty" } },
    });
    clock.advance(20_000);
    expect(await comment({ author: "Ann", content: "With address", replyEmail: READER_EMAIL })).toMatchObject({
      status: 303,
    });
    const [kept] = await handle.db.selectFrom("comment_reply_addresses").selectAll().execute();
    expect(kept).toMatchObject({
      email_hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      email_sealed: expect.stringMatching(/^v1\./),
    });

    // Nowhere in the database, in any case: every table's every row.
    const asked = (await services.comments.listPublicComments(post!.id)).items.find(
      (item) => item.content === "With address",
    )!;
    await reply(services, asked.id, post!.id, "Hello Ann", "203.0.113.9");
    await sink.waitFor(1);
    await services.outbox.stop();
    const tables = [
      "comments",
      "comment_reply_addresses",
      "comment_reply_notices",
      "email_sends",
      "email_deliveries",
      "settings",
      "rate_limits",
      "audit_log",
    ] as const;
    for (const table of tables) {
      const rows = await handle.db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows).toLowerCase()).not.toContain("reader.one");
    }
    // SMTP's envelope: the domain in lower case, the mailbox as the reader typed it.
    expect(sink.received[0]!.to).toBe("Reader.One@mail.example");
  });
});
