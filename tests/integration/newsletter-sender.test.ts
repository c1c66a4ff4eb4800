import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, type Dialect } from "../../server/kernel/db/connect.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, createManualClock, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { insertActiveSubscribers } from "../support/subscribers.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

const OWNER = { label: "owner" };

describe.each(testDialects())("who emails say they are from, on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;
  let sink: SmtpSink;
  let mailer: Mailer;
  const errors: unknown[] = [];

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    services = createServices({
      db: handle.db,
      dialect: dialect as Dialect,
      now: createManualClock().now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      siteUrl: "https://blog.example",
      emailOn: true,
      outboxTuning: { pollMs: 10 },
    });
    sink = await startSmtpSink();
    // MAIL_FROM gives the address; its name is not what readers see.
    mailer = await createMailer({ smtpUrl: sink.url, fromAddress: "news@blog.example", rate: 100 });
    services.outbox.start(mailer, (error) => errors.push(error));
    errors.length = 0;
  });
  afterEach(async () => {
    await services?.outbox.stop();
    mailer?.close();
    await sink?.close();
    await handle?.close();
    expect(errors).toEqual([]);
  });

  const saveSettings = async (changes: { title?: string; emailFromName?: string; emailReplyTo?: string }) =>
    services.siteSettings.update({ ...(await services.siteSettings.current()), ...changes }, OWNER);
  const confirmation = (to: string) =>
    services.outbox.enqueueSingle({
      to,
      subject: "Confirm your subscription",
      html: "<p>Confirm</p>",
      text: "Confirm",
    });

  it("says the site's title and MAIL_FROM's address, with no Reply-To, until Settings say otherwise", async () => {
    await saveSettings({ title: 'Heron "Notes", <daily>' });
    await confirmation("ada@example.com");
    await sink.waitFor(1);
    const mail = sink.received[0]!.parsed!;
    expect(mail.from?.value).toEqual([{ name: 'Heron "Notes", <daily>', address: "news@blog.example" }]);
    expect(mail.replyTo).toBeUndefined();
  });

  it("takes the sender name and Reply-To from Settings at send time, for confirmations and post emails", async () => {
    await saveSettings({ emailFromName: "Ada at Heron Notes", emailReplyTo: "ada@blog.example" });
    await confirmation("bea@example.com");
    await sink.waitFor(1);
    expect(sink.received[0]!.parsed!.from?.value).toEqual([
      { name: "Ada at Heron Notes", address: "news@blog.example" },
    ]);
    expect(sink.received[0]!.parsed!.replyTo?.value).toEqual([{ name: "", address: "ada@blog.example" }]);

    // Changed before the next send: the next email says so.
    await saveSettings({ emailFromName: "Bea", emailReplyTo: "" });
    await insertActiveSubscribers(handle.db, 2);
    await services.posts.createPost(buildPostInput({ title: "A heron at dawn", emailSubscribers: true }), TEST_WRITER);
    await sink.waitFor(3);
    for (const { parsed } of sink.received.slice(1)) {
      expect(parsed!.subject).toBe("A heron at dawn");
      expect(parsed!.from?.value).toEqual([{ name: "Bea", address: "news@blog.example" }]);
      expect(parsed!.replyTo).toBeUndefined();
    }
  });
});
