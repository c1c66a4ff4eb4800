// The fediverse figure of `npm run bench` (or alone, after a build: `node bench/fediverse.ts`):
// the production server on SQLite, then on PostgreSQL, 1,000 followers on 100 servers (a
// counting sink in this process, tests/support/fediverse-peer.ts, one port per server), and one
// post published as another app server would publish it. Printed: the time until every server's
// shared inbox has the post's Create, the same with shared inboxes left out (1,000 deliveries),
// and an uncached post page's latency while idle and while each delivery runs.
// Target (issue 25): reader pages' latency does not move while a delivery runs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildPostInput } from "../tests/support/factories.ts";
import { insertFollowers, spreadActors } from "../tests/support/fediverse-followers.ts";
import { type Arrival, type FediversePeer, startFediversePeer } from "../tests/support/fediverse-peer.ts";
import { type DatabaseHandle, openDatabase } from "../server/kernel/db/connect.ts";
import { createServices } from "../server/composition.ts";
import { SERVER_ENVIRONMENT, serverArguments } from "../scripts/server-process.ts";
import { type Latency, pageLatency, stopServer, waitUntilUp } from "./demo-server.ts";

const SERVERS = Number(process.env.BENCH_FEDIVERSE_SERVERS ?? 100);
const PER_SERVER = Number(process.env.BENCH_FEDIVERSE_PER_SERVER ?? 10);
const PORT = Number(process.env.BENCH_FEDIVERSE_PORT ?? 3296);
const IDLE_SECONDS = 5;
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SECRET = "fediverse bench secret, thirty-two characters or more";

/** Inboxes that have the Create of `objectId`, each counted once. */
function inboxesWithCreate(arrivals: Arrival[], objectId: string): Set<string> {
  return new Set(
    arrivals
      .filter((arrival) => arrival.type === "Create" && arrival.objectId === objectId)
      .map((arrival) => arrival.inbox),
  );
}

interface Delivery {
  inboxes: number;
  /** From the publishing save to the last inbox. */
  totalSeconds: number;
  /** From the first inbox to the last: the fan-out alone, without the worker's wait for its next look. */
  fanOutSeconds: number;
  during: Latency;
}

interface Target {
  name: string;
  databaseUrl: string;
  open: () => Promise<DatabaseHandle>;
}

interface Figures {
  idle: Latency;
  shared: Delivery;
  personal: Delivery;
}

/** The production server on `target`, the sink's followers, and the two deliveries timed. */
async function benchOn(target: Target, peer: FediversePeer): Promise<Figures> {
  const base = `http://127.0.0.1:${PORT}`;
  const server = spawn(process.execPath, serverArguments(), {
    env: {
      ...SERVER_ENVIRONMENT,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: base,
      DATABASE_URL: target.databaseUrl,
      BLOG_DEMO: "1",
      LOG_LEVEL: "warn",
      SESSION_SECRET: SECRET,
      COMMENT_IP_SALT: "fediverse bench salt, thirty-two characters",
      // The sink's servers are on 127.0.0.1, which the blog refuses to reach otherwise.
      FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true",
      // Every request renders: the latency measured is a page's own, not the cache's.
      PAGE_CACHE_BYTES: "0",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let handle: DatabaseHandle | undefined;
  try {
    await waitUntilUp(`${base}/healthz`, server);
    handle = await target.open();
    const db = handle.db;
    const blog = await (await fetch(`${base}/blog`)).text();
    const page = `${base}${blog.match(/href="(\/blog\/[a-z0-9-]+)"/)?.[1] ?? "/blog"}`;
    const services = createServices({
      db,
      dialect: handle.dialect,
      commentIpSalt: "unused",
      sessionSecret: SECRET,
      siteUrl: base,
    });
    const actors = spreadActors(peer, PER_SERVER);

    const idle = await pageLatency(
      page,
      (() => {
        const until = performance.now() + IDLE_SECONDS * 1000;
        return () => performance.now() > until;
      })(),
    );

    /** Publishes a post as another app server would and times its Create to `expected` inboxes. */
    async function deliver(title: string, expected: number): Promise<Delivery> {
      const started = performance.now();
      const post = await services.posts.createPost(buildPostInput({ title }));
      const objectId = `${base}/ap/posts/${post.id}`;
      let finished = 0;
      const during = pageLatency(page, () => finished > 0);
      await peer.waitFor((arrivals) => inboxesWithCreate(arrivals, objectId).size > 0, 120_000, "the first Create");
      const firstAt = performance.now();
      await peer.waitFor(
        (arrivals) => inboxesWithCreate(arrivals, objectId).size >= expected,
        600_000,
        `the Create in ${expected} inboxes`,
      );
      finished = performance.now();
      return {
        inboxes: expected,
        totalSeconds: (finished - started) / 1000,
        fanOutSeconds: (finished - firstAt) / 1000,
        during: await during,
      };
    }

    await insertFollowers(db, actors);
    const shared = await deliver("The bench's post to shared inboxes", SERVERS);
    await db.deleteFrom("fediverse_followers").execute();
    await insertFollowers(db, actors, { sharedInbox: false });
    const personal = await deliver("The bench's post to every inbox", actors.length);
    return { idle, shared, personal };
  } finally {
    await stopServer(server);
    await handle?.close();
  }
}

export async function benchFediverse(): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-fediverse-"));
  const filename = path.join(directory, "blog.sqlite");
  const postgresName = `inkwell_bench_fediverse_${process.pid}`;
  const postgresUrl = new URL(POSTGRES_ADMIN_URL);
  postgresUrl.pathname = `/${postgresName}`;
  const targets: Target[] = [
    {
      name: "SQLite",
      databaseUrl: `file:${filename}`,
      open: () => openDatabase({ dialect: "sqlite", filename }),
    },
    {
      name: "PostgreSQL",
      databaseUrl: postgresUrl.href,
      open: () => openDatabase({ dialect: "postgres", connectionString: postgresUrl.href }),
    },
  ];
  // As the other benchmarks do (scratch-databases.ts): without a PostgreSQL, say so and measure SQLite.
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  const reachable = await admin.connect().then(
    () => true,
    (error: Error) => (console.log(`\nfediverse on postgres: skipped (${error.message})`), false),
  );
  if (reachable) await admin.query(`create database ${postgresName}`);
  else targets.pop();
  const peer = await startFediversePeer({ servers: SERVERS, verifySignatures: false });
  try {
    const results: [string, Figures][] = [];
    for (const target of targets) results.push([target.name, await benchOn(target, peer)]);

    const followers = (SERVERS * PER_SERVER).toLocaleString("en-US");
    console.log(`\n=== Fediverse: one post to ${followers} followers on ${SERVERS} servers (a local sink)\n`);
    console.log(
      `| database | delivery | inboxes | publish → last inbox | first → last inbox | post page p50 / p99 meanwhile |`,
    );
    console.log(`|---|---|---|---|---|---|`);
    for (const [name, { idle, shared, personal }] of results) {
      const change = (busy: Latency) => {
        const slower = busy.p50 / idle.p50 - 1;
        return `${slower >= 0 ? "+" : ""}${(slower * 100).toFixed(0)}%`;
      };
      const row = (label: string, delivery: Delivery) =>
        `| ${name} | ${label} | ${delivery.inboxes.toLocaleString("en-US")} | ${delivery.totalSeconds.toFixed(2)} s | ` +
        `${delivery.fanOutSeconds.toFixed(2)} s | ${delivery.during.p50.toFixed(1)} / ${delivery.during.p99.toFixed(1)} ms ` +
        `(${delivery.during.count} requests), p50 ${change(delivery.during)} |`;
      console.log(
        `| ${name} | none (idle) | | | | ${idle.p50.toFixed(1)} / ${idle.p99.toFixed(1)} ms (${idle.count} requests) |`,
      );
      console.log(row("shared inboxes (one per server)", shared));
      console.log(row("every follower's own inbox", personal));
    }
  } finally {
    await peer.close();
    if (reachable) {
      await admin.query(`drop database if exists ${postgresName} with (force)`);
      await admin.end();
    }
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchFediverse();
