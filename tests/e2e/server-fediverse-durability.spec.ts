import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { createServices } from "../../server/composition.ts";
import { buildPostInput } from "../support/factories.ts";
import { insertFollowers, spreadActors } from "../support/fediverse-followers.ts";
import { type Arrival, type FediversePeer, startFediversePeer } from "../support/fediverse-peer.ts";
import {
  findFreePort,
  type StartedServer,
  startServer,
  waitForOutput,
  withScratchPostgresDatabase,
} from "./server-support.ts";

// Proof that a post's delivery to the fediverse survives a restart (issue 25, "Done when"): 200
// followers, each with its own inbox on one of 10 servers of a second ActivityPub server (the
// peer, which counts every POST before Fedify's own de-duplication). The production server is
// stopped in the middle of the delivery and started again: after an orderly stop (SIGTERM) every
// inbox has the post's Create exactly once; after SIGKILL at least once, and a second time at most
// for the deliveries the dead server had claimed. Why it holds: docs/decisions/0015-fediverse.md.

const SERVERS = 10;
const PER_SERVER = 20;
const FOLLOWERS = SERVERS * PER_SERVER;
/** Stop once this many inboxes have the Create, so the stop lands while deliveries are in flight. */
const STOP_AFTER = 40;
/** Each inbox answers this much later, so a delivery takes long enough to be cut in the middle. */
const INBOX_DELAY_MS = 100;
const SECRET = "fediverse durability secret, thirty-two characters or more";

function startFederatingServer(databaseUrl: string, port: number): StartedServer {
  return startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: SECRET,
    COMMENT_IP_SALT: "fediverse durability salt, thirty-two characters",
    // The peer's servers are on 127.0.0.1, which the blog refuses to reach otherwise.
    FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true",
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

/** Publishes a post through the services, as the editor on another app server would; its object id. */
async function publishPost(handle: DatabaseHandle, siteUrl: string): Promise<string> {
  const services = createServices({
    db: handle.db,
    dialect: handle.dialect,
    commentIpSalt: "unused",
    sessionSecret: SECRET,
    siteUrl,
  });
  const post = await services.posts.createPost(buildPostInput({ title: "Delivered once" }));
  return `${siteUrl}/ap/posts/${post.id}`;
}

const createsOf = (arrivals: Arrival[], objectId: string) =>
  arrivals.filter((arrival) => arrival.type === "Create" && arrival.objectId === objectId && arrival.status < 300);

const inboxesWith = (arrivals: Arrival[], objectId: string) =>
  new Set(createsOf(arrivals, objectId).map((arrival) => arrival.inbox)).size;

/** Waits until every follower's inbox has the Create and the blog's queue holds nothing more to send. */
async function waitUntilDelivered(handle: DatabaseHandle, peer: FediversePeer, objectId: string): Promise<void> {
  await peer.waitFor((arrivals) => inboxesWith(arrivals, objectId) === FOLLOWERS, 120_000, "every inbox's Create");
  // A dead server's claim on a message it had already delivered lapses only with its lease
  // (60 s on PostgreSQL); the message is sent again then, and the queue empties after it.
  const deadline = Date.now() + 100_000;
  for (;;) {
    const { queued } = await handle.db
      .selectFrom("fedify_messages")
      .select((eb) => eb.fn.countAll<number>().as("queued"))
      .executeTakeFirstOrThrow();
    if (Number(queued) === 0) return;
    if (Date.now() > deadline) throw new Error(`${queued} messages still queued after every inbox had the Create`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates per inbox: every follower's inbox has at least one; returns how many got more than one. */
function countDuplicates(peer: FediversePeer, objectId: string): number {
  const perInbox = new Map<string, number>();
  for (const { inbox } of createsOf(peer.arrivals, objectId)) perInbox.set(inbox, (perInbox.get(inbox) ?? 0) + 1);
  expect(perInbox.size).toBe(FOLLOWERS);
  return [...perInbox.values()].reduce((sum, count) => sum + count - 1, 0);
}

async function runRestartTest(databaseUrl: string, label: string, signal: "SIGTERM" | "SIGKILL"): Promise<void> {
  const peer = await startFediversePeer({ servers: SERVERS, sharedInbox: false });
  peer.inboxDelayMs = INBOX_DELAY_MS;
  const port = await findFreePort();
  const siteUrl = `http://127.0.0.1:${port}`;
  let handle: DatabaseHandle | undefined;
  try {
    const first = startFederatingServer(databaseUrl, port);
    await ready(first);
    handle = await openTarget(databaseUrl);
    await insertFollowers(handle.db, spreadActors(peer, PER_SERVER));
    const objectId = await publishPost(handle, siteUrl);
    await peer.waitFor((arrivals) => inboxesWith(arrivals, objectId) >= STOP_AFTER, 60_000, `${STOP_AFTER} Creates`);
    first.child.kill(signal);
    await first.exit;
    // What the server had taken and not finished: after SIGKILL, each may be sent again.
    const { claimed } = await handle.db
      .selectFrom("fedify_messages")
      .select((eb) => eb.fn.countAll<number>().as("claimed"))
      .where("claimed_until", "is not", null)
      .executeTakeFirstOrThrow();
    const atStop = inboxesWith(peer.arrivals, objectId);
    expect(atStop, "the stop landed before the delivery finished").toBeLessThan(FOLLOWERS);

    const second = startFederatingServer(databaseUrl, port);
    try {
      await ready(second);
      // PostgreSQL after SIGKILL: the dead server's claims come back when their lease runs out.
      await waitUntilDelivered(handle, peer, objectId);
    } finally {
      second.child.kill("SIGTERM");
      await second.exit;
    }
    const duplicates = countDuplicates(peer, objectId);
    console.log(
      `[fediverse durability] ${label}, ${signal}: ${FOLLOWERS} inboxes, stopped after ${atStop}, ` +
        `${Number(claimed)} claimed at the stop, ${duplicates} duplicates`,
    );
    if (signal === "SIGTERM") expect(duplicates).toBe(0);
    else expect(duplicates).toBeLessThanOrEqual(Number(claimed));
  } finally {
    await handle?.close();
    await peer.close();
  }
}

async function withSqliteFile(run: (url: string) => Promise<void>): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-fediverse-"));
  try {
    await run(`file:${path.join(directory, "blog.sqlite")}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

test.describe("a post's delivery to the fediverse survives a restart", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });

  test("on SQLite, stopped in order: each inbox once", async () => {
    await withSqliteFile((url) => runRestartTest(url, "SQLite", "SIGTERM"));
  });

  test("on PostgreSQL, stopped in order: each inbox once", async () => {
    await withScratchPostgresDatabase("blog_fediverse", (url) => runRestartTest(url, "PostgreSQL", "SIGTERM"));
  });

  test("on SQLite, killed: each inbox at least once, again only what was in flight", async () => {
    await withSqliteFile((url) => runRestartTest(url, "SQLite", "SIGKILL"));
  });

  test("on PostgreSQL, killed: each inbox at least once, again only what was in flight", async () => {
    await withScratchPostgresDatabase("blog_fediverse_kill", (url) => runRestartTest(url, "PostgreSQL", "SIGKILL"));
  });
});
