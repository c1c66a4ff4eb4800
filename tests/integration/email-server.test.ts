import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EmailServerInput } from "../../domain/email-server.ts";
import { createServices, type Services } from "../../server/composition.ts";
import type { MailConfig } from "../../server/kernel/config.ts";
import { type DatabaseHandle, type Dialect } from "../../server/kernel/db/connect.ts";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, TEST_PASSWORD_COST } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

// Settings → Email (issue 35): the mail server saved in the admin, its password sealed at rest,
// email on once a test email went through, on every app server without a restart; SMTP_URL wins.

const OWNER = { label: "owner" };
const PASSWORD = "correct horse battery staple";
const SECRET = "email server test secret, thirty-two characters or more";
const SENDER = { name: "Heron Notes" };

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error("expected a refusal");
}

describe.each(testDialects())("the mail server set up in the admin, on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let clock: ReturnType<typeof createManualClock>;
  let sink: SmtpSink;
  const opened: { close(): unknown }[] = [];

  const makeServices = (mail?: MailConfig): Services =>
    createServices({
      db: handle.db,
      dialect: dialect as Dialect,
      now: clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: SECRET,
      siteUrl: "https://blog.example",
      mail,
      outboxTuning: { pollMs: 10 },
    });
  const sinkServer = (): EmailServerInput => ({
    host: "127.0.0.1",
    port: sink.port,
    security: "none",
    user: "",
    password: "",
    fromAddress: "news@blog.example",
  });

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
    await sink?.close();
    await handle?.close();
  });

  it("stores the password sealed, never shows it, and keeps it when the field is left empty", async () => {
    const services = makeServices();
    await services.email.save(OWNER, { ...sinkServer(), host: "smtp.example.com", user: "ada", password: PASSWORD });
    const stored = await handle.db.selectFrom("email_server").select("value").executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(PASSWORD);
    expect(stored.value).not.toContain(Buffer.from(PASSWORD).toString("base64"));
    const shown = await services.email.describe();
    expect(shown).toMatchObject({ source: "settings", host: "smtp.example.com", user: "ada", passwordSaved: true });
    expect(JSON.stringify(shown)).not.toContain(PASSWORD);
    expect(await services.email.transport()).toBeUndefined();

    await services.email.save(OWNER, { ...sinkServer(), host: "smtp.example.com", user: "ada", password: "" });
    const kept = await handle.db.selectFrom("email_server").select("value").executeTakeFirstOrThrow();
    expect(JSON.parse(kept.value).passwordSealed).toBe(JSON.parse(stored.value).passwordSealed);

    // Another server secret opens nothing: the password must be typed again.
    const elsewhere = createServices({
      db: handle.db,
      dialect: dialect as Dialect,
      now: clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: "another server's secret, thirty-two characters long",
    });
    expect(await refusal(elsewhere.email.sendTest("u1", "ada@example.com", SENDER))).toEqual({
      code: "EMAIL_TEST_FAILED",
      message: "The saved password cannot be read since the server's secret changed. Type the password again and save.",
    });
  });

  it("opens subscriptions once a test email went through, and the outbox sends through it without a restart", async () => {
    const services = makeServices();
    const mailer: Mailer = createMailer({ rate: 100, current: services.email.transport });
    opened.push(mailer);
    const errors: unknown[] = [];
    services.outbox.start(mailer, (error) => errors.push(error), services.subscriptions.sendRequestedConfirmations);
    opened.push({ close: () => services.outbox.stop() });

    expect(await services.subscriptions.isOpen()).toBe(false);
    expect(await refusal(services.subscriptions.subscribe("early@example.com"))).toMatchObject({
      code: "SUBSCRIPTIONS_CLOSED",
    });
    await services.email.save(OWNER, sinkServer());
    // Saved but not tested: still closed.
    expect(await services.subscriptions.isOpen()).toBe(false);

    await services.email.sendTest("u1", "owner@example.com", SENDER);
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]!.to).toBe("owner@example.com");
    expect(sink.received[0]!.parsed!.subject).toBe("A test email from Heron Notes");
    expect(sink.received[0]!.parsed!.from?.value).toEqual([{ name: "Heron Notes", address: "news@blog.example" }]);
    expect(await services.subscriptions.isOpen()).toBe(true);
    expect(await services.email.describe()).toMatchObject({ on: true, testedAt: clock.now().toISOString() });

    await services.subscriptions.subscribe("reader@example.com");
    services.outbox.wake();
    await sink.waitFor(2);
    expect(sink.received[1]!.to).toBe("reader@example.com");
    expect(sink.received[1]!.parsed!.subject).toMatch(/confirm/i);
    expect(errors).toEqual([]);

    // A new server closes email again until it is tested; a save that changes nothing keeps it on.
    await services.email.save(OWNER, sinkServer());
    expect(await services.subscriptions.isOpen()).toBe(true);
    await services.email.save(OWNER, { ...sinkServer(), port: sink.port + 1 });
    expect(await services.subscriptions.isOpen()).toBe(false);
  });

  it("tells every app server of a tested mail server within a second", async () => {
    const here = makeServices();
    const there = makeServices();
    expect(await there.email.isOn()).toBe(false);
    const heard: string[] = [];
    there.email.onChange(() => heard.push("changed"));
    await here.email.save(OWNER, sinkServer());
    await here.email.sendTest("u1", "owner@example.com", SENDER);
    clock.advance(1000);
    await there.settings.checkAll();
    expect(await there.email.isOn()).toBe(true);
    expect(there.email.isOnNow()).toBe(true);
    expect(heard.length).toBeGreaterThan(0);
  });

  it("says in plain words why a test email failed", async () => {
    const services = makeServices();
    const closedPort = sink.port;
    await sink.close();
    await services.email.save(OWNER, { ...sinkServer(), port: closedPort });
    expect(await refusal(services.email.sendTest("u1", "owner@example.com", SENDER))).toEqual({
      code: "EMAIL_TEST_FAILED",
      message: `Could not reach 127.0.0.1 on port ${closedPort}. Check the name and the port, and that the mail server lets this machine in.`,
    });

    const guarded = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth(_auth, _session, callback) {
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
    });
    await new Promise<void>((resolve) => guarded.listen(0, "127.0.0.1", resolve));
    opened.push(guarded);
    const address = guarded.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    await services.email.save(OWNER, { ...sinkServer(), port, user: "ada", password: "wrong" });
    const { code, message } = await refusal(services.email.sendTest("u1", "owner@example.com", SENDER));
    expect(code).toBe("EMAIL_TEST_FAILED");
    expect(message).toMatch(
      /^The mail server refused the password \(or the user name\)\. It answered: “.*Invalid username or password”$/,
    );
    expect(await services.email.isOn()).toBe(false);
  });

  it("lets SMTP_URL and MAIL_FROM win: email is on, and the screen's fields cannot be saved", async () => {
    const services = makeServices({
      smtpUrl: `smtp://ada:${encodeURIComponent(PASSWORD)}@127.0.0.1:${sink.port}`,
      fromAddress: "env@blog.example",
      rate: 10,
    });
    expect(await services.email.describe()).toMatchObject({
      source: "environment",
      host: "127.0.0.1",
      port: sink.port,
      user: "ada",
      passwordSaved: true,
      fromAddress: "env@blog.example",
      on: true,
    });
    expect(JSON.stringify(await services.email.describe())).not.toContain(PASSWORD);
    expect(await services.subscriptions.isOpen()).toBe(true);
    expect(await refusal(services.email.save(OWNER, sinkServer()))).toEqual({
      code: "EMAIL_SET_BY_ENVIRONMENT",
      message: "Email is set by the server's environment (SMTP_URL and MAIL_FROM), which wins over these settings.",
    });
    expect(await handle.db.selectFrom("email_server").select("key").execute()).toEqual([]);
  });
});
