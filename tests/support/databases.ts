import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Dialect } from "../../server/kernel/db/connect.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";

/** The server every PostgreSQL test talks to; its `test` database is only used to create others. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export function postgresUrlFor(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.href;
}

/** Set by the global setup: the migrated templates, and why PostgreSQL is skipped when it is. */
export interface TestDatabaseEnvironment {
  sqliteTemplate: string;
  postgresTemplate: string | undefined;
  postgresSkipReason: string | undefined;
  runId: string;
}

export function readTestEnvironment(): TestDatabaseEnvironment {
  const raw = process.env.BLOG_TEST_DATABASES;
  if (!raw) throw new Error("BLOG_TEST_DATABASES is missing: run integration tests through vitest's global setup");
  return JSON.parse(raw) as TestDatabaseEnvironment;
}

export function testDialects(): { dialect: Dialect; skip: boolean }[] {
  const environment = readTestEnvironment();
  return [
    { dialect: "sqlite", skip: false },
    { dialect: "postgres", skip: environment.postgresTemplate === undefined },
  ];
}

let counter = 0;

/** A fresh, migrated, empty database copied from the run's template. */
export async function createTestDatabase(dialect: Dialect): Promise<DatabaseHandle & { url: string }> {
  const environment = readTestEnvironment();
  counter += 1;
  if (dialect === "sqlite") {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-test-"));
    const filename = path.join(directory, "blog.sqlite");
    copyFileSync(environment.sqliteTemplate, filename);
    const handle = await openDatabase({ dialect: "sqlite", filename });
    return {
      ...handle,
      url: `file:${filename}`,
      close: async () => {
        await handle.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  if (!environment.postgresTemplate) throw new Error(`PostgreSQL is unavailable: ${environment.postgresSkipReason}`);
  const name = `blog_test_${environment.runId}_${process.pid}_${counter}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${environment.postgresTemplate}`);
  } finally {
    await admin.end();
  }
  const url = postgresUrlFor(name);
  const handle = await openDatabase({ dialect: "postgres", connectionString: url });
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
