// A fresh, migrated database on each engine for a benchmark to fill and measure: SQLite in a
// temporary folder, then PostgreSQL in a database of its own when one answers (skipped, with
// the reason printed, when none does), or only the ones asked for. Both are removed afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type DatabaseHandle, type Dialect, openDatabase } from "../server/kernel/db/connect.ts";
import { migrateToLatest } from "../server/kernel/db/migrate.ts";

export async function onScratchDatabases(
  name: string,
  measure: (handle: DatabaseHandle) => Promise<void>,
  { dialects = ["sqlite", "postgres"] }: { dialects?: readonly Dialect[] } = {},
) {
  const directory = mkdtempSync(path.join(tmpdir(), `blog-${name}-`));
  try {
    if (dialects.includes("sqlite")) {
      const sqlite = await openDatabase({ dialect: "sqlite", filename: path.join(directory, "bench.sqlite") });
      try {
        await migrateToLatest(sqlite.db, "sqlite");
        await measure(sqlite);
      } finally {
        await sqlite.close();
      }
    }
    if (!dialects.includes("postgres")) return;

    const adminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
    const reachable = await admin.connect().then(
      () => true,
      (error: Error) => (console.log(`\npostgres: skipped (${error.message})`), false),
    );
    if (!reachable) return;
    const database = `blog_${name.replaceAll("-", "_")}_${process.pid}`;
    await admin.query(`create database ${database}`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const postgres = await openDatabase({ dialect: "postgres", connectionString: url.href });
    try {
      await migrateToLatest(postgres.db, "postgres");
      await measure(postgres);
    } finally {
      await postgres.close();
      await admin.query(`drop database ${database} with (force)`);
      await admin.end();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
