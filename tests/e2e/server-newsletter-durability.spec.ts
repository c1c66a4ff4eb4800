import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { createServices } from "../../server/composition.ts";
import { UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/outbox.ts";
import { type CaughtEmail, startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { insertActiveSubscribers } from "../support/subscribers.ts";
import { type StartedServer, startServer, waitForOutput, withScratchPostgresDatabase } from "./server-support.ts";

// Proof that a newsletter send survives the server being killed (issue 24, "Done when"): 5,000
// active subscribers, the production server SIGKILLed in the middle of the send and started again;
// every subscriber ends with one email, or two where a message was with SMTP (or just accepted,
// its record not yet written) at the instant of the kill: at most ten. And two servers on one PostgreSQL database share a send without a duplicate.
// Why it holds: docs/decisions/0014-newsletter-outbox.md.

const SUBSCRIBERS = 5_000;
/** Kill once this many emails arrived, so the kill lands while batches are in flight. */
const KILL_AFTER_RECEIVED = 1_500;
/**
 * The most one crash can send twice: each of the mailer's 5 connections holds at most two messages
 * not yet recorded as sent, one with SMTP and the one before it (server/newsletter/outbox.ts).
 */
const UNRECORDED_AT_MOST = 2 * 5;
const SECRET = "newsletter durability secret, thirty-two characters or more";

function startMailingServer(databaseUrl: string, sink: SmtpSink): StartedServer {
  return startServer({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "newsletter durability salt, thirty-two characters",
    SMTP_URL: sink.url,
    MAIL_FROM: "Durability <news@blog.example>",
    SMTP_RATE: "2000",
  });
}

async function ready(server: StartedServer): Promise<void> {
  try {
    await waitForOutput(server, /Blog ready at http:\/\/127\.0\.0\.1:\d+/);
  } catch (error) {
    server.child.kill("SIGKILL");
    throw error;
  }
}

async function openTarget(databaseUrl: string): Promise<DatabaseHandle> {
  return databaseUrl.startsWith("file:")
    ? openDatabase({ dialect: "sqlite", filename: databaseUrl.slice("file:".length) })
    : openDatabase({ dialect: "postgres", connectionString: databaseUrl });
}

/** Inserts the subscribers and queues a demo post's send through the services, as the editor would. */
async function queueSend(handle: DatabaseHandle): Promise<string> {
  await insertActiveSubscribers(handle.db, SUBSCRIBERS);
  const services = createServices({
    db: handle.db,
    dialect: handle.dialect,
    commentIpSalt: "unused",
    sessionSecret: SECRET,
  });
  const [post] = (await services.posts.listAllPosts()).items;
  const queued = await services.outbox.enqueuePostSend({
    postId: post!.id,
    subject: post!.title,
    html: `<p>${post!.title}</p><p><a href="${UNSUBSCRIBE_PLACEHOLDER}">Unsubscribe</a></p>`,
    text: `${post!.title}\n\nUnsubscribe: ${UNSUBSCRIBE_PLACEHOLDER}`,
  });
  expect(queued?.total).toBe(SUBSCRIBERS);
  return queued!.sendId;
}

async function waitUntilDone(handle: DatabaseHandle, sendId: string, timeoutMs: number): Promise<void> {
  const services = createServices({ db: handle.db, dialect: handle.dialect, commentIpSalt: "unused" });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await services.outbox.progress(sendId);
    if (progress?.state === "done") {
      expect(progress).toMatchObject({ total: SUBSCRIBERS, sent: SUBSCRIBERS, failed: 0 });
      return;
    }
    if (Date.now() > deadline) throw new Error(`the send did not finish: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Emails per recipient: every subscriber must have one; returns how many got a second. */
function countDuplicates(received: CaughtEmail[]): number {
  const perRecipient = new Map<string, number>();
  for (const { to } of received) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
  expect(perRecipient.size).toBe(SUBSCRIBERS);
  expect(Math.max(...perRecipient.values())).toBeLessThanOrEqual(2);
  return received.length - SUBSCRIBERS;
}

async function runCrashTest(databaseUrl: string, label: string): Promise<void> {
  const sink = await startSmtpSink({ parse: false });
  let handle: DatabaseHandle | undefined;
  try {
    const first = startMailingServer(databaseUrl, sink);
    await ready(first);
    handle = await openTarget(databaseUrl);
    const sendId = await queueSend(handle);
    await sink.waitFor(KILL_AFTER_RECEIVED, 60_000);
    first.child.kill("SIGKILL");
    await first.exit;
    const atKill = sink.received.length;
    expect(atKill, "the kill landed before the send finished").toBeLessThan(SUBSCRIBERS);

    const second = startMailingServer(databaseUrl, sink);
    try {
      await ready(second);
      // PostgreSQL: the dead server's claims come back when their 30-second lease runs out.
      await waitUntilDone(handle, sendId, 90_000);
    } finally {
      second.child.kill("SIGTERM");
      await second.exit;
    }
    const duplicates = countDuplicates(sink.received);
    console.log(
      `[newsletter durability] ${label}: ${SUBSCRIBERS} subscribers, killed after ${atKill} emails, ${sink.received.length} emails in all, ${duplicates} duplicates`,
    );
    expect(duplicates).toBeLessThanOrEqual(UNRECORDED_AT_MOST);
  } finally {
    await handle?.close();
    await sink.close();
  }
}

test.describe("a newsletter send survives a killed server", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });

  test("on SQLite", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-newsletter-"));
    try {
      await runCrashTest(`file:${path.join(directory, "blog.sqlite")}`, "SQLite");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("on PostgreSQL", async () => {
    await withScratchPostgresDatabase("blog_newsletter", (url) => runCrashTest(url, "PostgreSQL"));
  });

  test("two servers on one PostgreSQL share a send without a duplicate", async () => {
    await withScratchPostgresDatabase("blog_newsletter_pair", async (url) => {
      // Each server its own SMTP server, so the test sees that both took part.
      const sinks = [await startSmtpSink({ parse: false }), await startSmtpSink({ parse: false })];
      const servers: StartedServer[] = [];
      let handle: DatabaseHandle | undefined;
      try {
        for (const sink of sinks) {
          servers.push(startMailingServer(url, sink));
          await ready(servers.at(-1)!);
        }
        handle = await openTarget(url);
        const sendId = await queueSend(handle);
        await waitUntilDone(handle, sendId, 90_000);
        const shares = sinks.map((sink) => sink.received.length);
        const duplicates = countDuplicates(sinks.flatMap((sink) => sink.received));
        console.log(
          `[newsletter durability] two servers on PostgreSQL: ${shares.join(" + ")} emails, ${duplicates} duplicates`,
        );
        expect(Math.min(...shares)).toBeGreaterThan(0);
        expect(duplicates).toBe(0);
      } finally {
        for (const server of servers) server.child.kill("SIGTERM");
        await Promise.all(servers.map((server) => server.exit));
        await handle?.close();
        await Promise.all(sinks.map((sink) => sink.close()));
      }
    });
  });
});
