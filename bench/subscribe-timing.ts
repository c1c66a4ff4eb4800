// Whether the subscribe form's answer tells who is subscribed (issue 32, item 14): the median
// and mean time of 200 subscriptions for addresses already active against 200 new ones, through
// the subscription service, on SQLite (a file) and PostgreSQL (BENCH_POSTGRES_URL, default the
// local test server; a database is made and dropped). Run: `node bench/subscribe-timing.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type DatabaseHandle, type Dialect, openDatabase } from "../server/db/connect.ts";
import { migrateToLatest } from "../server/db/migrate.ts";
import { createServices } from "../server/services/index.ts";
import { insertActiveSubscribers } from "../tests/support/subscribers.ts";

const COUNT = 200;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function withDatabase(dialect: Dialect, work: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  if (dialect === "sqlite") {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-bench-subscribe-"));
    const handle = await openDatabase({ dialect, filename: path.join(directory, "blog.sqlite") });
    try {
      await work(handle);
    } finally {
      await handle.close();
      rmSync(directory, { recursive: true, force: true });
    }
    return;
  }
  const name = `blog_bench_subscribe_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ dialect, connectionString: url.href });
  try {
    await work(handle);
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, mean ${mean.toFixed(2)} ms`;
}

for (const dialect of ["sqlite", "postgres"] as const) {
  await withDatabase(dialect, async (handle) => {
    await migrateToLatest(handle.db, dialect);
    await insertActiveSubscribers(handle.db, COUNT);
    const services = createServices({ db: handle.db, dialect, commentIpSalt: "bench salt", emailOn: true });
    const subscribe = async (email: string, client: string) => {
      const started = performance.now();
      await services.subscriptions.subscribe(email, { clientAddress: client });
      return performance.now() - started;
    };
    for (let index = 0; index < 50; index += 1) await subscribe(`warm${index}@example.org`, `10.9.0.${index}`);
    // Alternately, so a slower moment of the machine falls on both kinds alike.
    const active: number[] = [];
    const fresh: number[] = [];
    for (let index = 0; index < COUNT; index += 1) {
      active.push(await subscribe(`reader${index}@example.com`, `10.1.${index % 250}.${index}`));
      fresh.push(await subscribe(`new${index}@example.net`, `10.2.${index % 250}.${index}`));
    }
    console.log(`${dialect}: active ${summary(active)}; new ${summary(fresh)}`);
  });
}
