import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../../server/kernel/db/connect.ts";
import { migrateToLatest } from "../../server/kernel/db/migrate.ts";
import { POSTGRES_ADMIN_URL, postgresUrlFor, type TestDatabaseEnvironment } from "./databases.ts";

async function createPostgresTemplate(runId: string): Promise<string> {
  const name = `blog_template_${runId}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ dialect: "postgres", connectionString: postgresUrlFor(name) });
  await migrateToLatest(handle.db, "postgres");
  await handle.close();
  return name;
}

async function dropPostgresDatabases(runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
      `blog\\_%\\_${runId}%`,
    ]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await admin.end();
  }
}

/** Migrates one template per database for the run; every test copies it instead of migrating. */
export default async function setup() {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const directory = mkdtempSync(path.join(tmpdir(), "blog-template-"));
  const sqliteTemplate = path.join(directory, "template.sqlite");
  const sqlite = await openDatabase({ dialect: "sqlite", filename: sqliteTemplate });
  await migrateToLatest(sqlite.db, "sqlite");
  await sqlite.close();

  let postgresTemplate: string | undefined;
  let postgresSkipReason: string | undefined;
  try {
    postgresTemplate = await createPostgresTemplate(runId);
  } catch (error) {
    postgresSkipReason = `no PostgreSQL at ${POSTGRES_ADMIN_URL.replace(/\/\/[^@/]*@/, "//")}: ${(error as Error).message}`;
    if (process.env.CI === "true")
      throw new Error(`CI requires PostgreSQL for the contract suite; ${postgresSkipReason}`, { cause: error });
    process.stdout.write(`\n[integration] PostgreSQL tests skipped: ${postgresSkipReason}\n`);
  }

  const environment: TestDatabaseEnvironment = { sqliteTemplate, postgresTemplate, postgresSkipReason, runId };
  process.env.BLOG_TEST_DATABASES = JSON.stringify(environment);

  return async () => {
    rmSync(directory, { recursive: true, force: true });
    if (postgresTemplate) await dropPostgresDatabases(runId);
  };
}
