import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMailer, type Mailer } from "../../server/newsletter/mailer.ts";
import { createOutbox, type Outbox, UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/outbox.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createPosts, createManualClock } from "../support/factories.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { insertActiveSubscribers } from "../support/subscribers.ts";
import { createServices } from "../../server/composition.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

// A worker killed with SIGKILL in the middle of a send, in a process of its own
// (tests/support/outbox-worker.ts), and the send finished by another: every subscriber gets the
// post, and only a message SMTP held or had just taken at the instant of the kill may arrive twice
// (docs/decisions/0014-newsletter-outbox.md). The production server's version of this runs in
// tests/e2e/server-newsletter-durability.spec.ts.

const SUBSCRIBERS = 2_000;
/** Not a multiple of the batch (50), so the kill lands while one is with SMTP. */
const KILL_AFTER_RECEIVED = 625;
/**
 * Each connection of the mailer's pool (server/newsletter/mailer.ts, 5) holds at most two messages
 * not yet recorded: one with SMTP, and the one before it, whose record is being written.
 */
const UNRECORDED_AT_MOST = 2 * 5;
const LEASE_MS = 2_000;
const WORKER = fileURLToPath(new URL("../support/outbox-worker.ts", import.meta.url));

describe.each(testDialects())("a newsletter worker killed mid-send on $dialect", ({ dialect, skip }) => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let sink: SmtpSink;
  let mailer: Mailer | undefined;
  let outbox: Outbox | undefined;
  const errors: unknown[] = [];

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    sink = await startSmtpSink({ parse: false });
    errors.length = 0;
  });
  afterEach(async () => {
    await outbox?.stop();
    mailer?.close();
    await sink?.close();
    await handle?.close();
    expect(errors).toEqual([]);
  });

  it(
    "sends every subscriber the post, repeating at most the messages not yet recorded at the kill",
    { timeout: 60_000 },
    async () => {
      await insertActiveSubscribers(handle.db, SUBSCRIBERS);
      const clock = createManualClock();
      const services = createServices({ db: handle.db, dialect, now: clock.now, commentIpSalt: TEST_COMMENT_IP_SALT });
      const [post] = await createPosts(services, clock, [{}]);
      const makeOutbox = () =>
        createOutbox({
          db: handle.db,
          dialect,
          now: () => new Date(),
          unsubscribeUrl: (id) => `https://blog.example/unsubscribe?token=${id}`,
          readSender: async () => ({ name: "Crash test", replyTo: undefined }),
          tuning: { pollMs: 10, leaseMs: LEASE_MS },
        });
      const queued = await makeOutbox().enqueuePostSend({
        postId: post!.id,
        subject: "A heron at dawn",
        html: `<p>Herons wait.</p><p><a href="${UNSUBSCRIBE_PLACEHOLDER}">Unsubscribe</a></p>`,
        text: `Herons wait.\n\nUnsubscribe: ${UNSUBSCRIBE_PLACEHOLDER}`,
      });

      const child = spawn(process.execPath, [WORKER], {
        env: { ...process.env, DATABASE_URL: handle.url, SMTP_URL: sink.url, LEASE_MS: String(LEASE_MS) },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let childErrors = "";
      child.stderr.on("data", (chunk: Buffer) => (childErrors += chunk.toString()));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await sink.waitFor(KILL_AFTER_RECEIVED, 30_000);
      child.kill("SIGKILL");
      await exited;
      const atKill = sink.received.length;
      expect(childErrors).toBe("");
      expect(atKill).toBeLessThan(SUBSCRIBERS);

      const resumedAt = performance.now();
      outbox = makeOutbox();
      mailer = await createMailer({ smtpUrl: sink.url, fromAddress: "news@blog.example", rate: 2000 });
      outbox.start(mailer, (error) => errors.push(error));
      await expect
        .poll(async () => (await outbox!.progress(queued!.sendId))?.state, { timeout: 30_000, interval: 50 })
        .toBe("done");
      const seconds = (performance.now() - resumedAt) / 1000;
      expect(await outbox.progress(queued!.sendId)).toMatchObject({ total: SUBSCRIBERS, sent: SUBSCRIBERS, failed: 0 });

      const perRecipient = new Map<string, number>();
      for (const { to } of sink.received) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      expect(perRecipient.size).toBe(SUBSCRIBERS);
      const duplicates = sink.received.length - SUBSCRIBERS;
      console.log(
        `[newsletter crash] ${dialect}: killed after ${atKill} emails, ${duplicates} duplicates; ` +
          `the other ${SUBSCRIBERS - atKill} sent at ${((sink.received.length - atKill) / seconds).toFixed(0)}/s after the restart`,
      );
      expect(duplicates).toBeLessThanOrEqual(UNRECORDED_AT_MOST);
    },
  );
});
