import { mkdirSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase, sql } from "kysely";
import pg from "pg";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import type { DatabaseTarget } from "../config.ts";
import { recognisingOutages } from "./outages.ts";
import type { Database } from "./schema.ts";

export type Dialect = DatabaseTarget["dialect"];

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close: () => Promise<void>;
  /** SQLite only: an online, consistent copy of the database while it keeps serving. */
  /** Copies the database page by page while it is in use, telling how far it is (0–1). */
  backupTo?: (file: string, onProgress?: (fraction: number) => void) => Promise<void>;
}

/** Opening the database fails with the same error as a call to it that cannot be answered. */
export { DatabaseUnavailableError };

const CONNECT_TIMEOUT_MS = 5_000;

// PostgreSQL BIGINT (count(*)) arrives as a string by default; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

function openSqlite(filename: string): DatabaseHandle {
  if (filename !== ":memory:") mkdirSync(path.dirname(filename), { recursive: true });
  const database = new SqliteDatabase(filename, { timeout: CONNECT_TIMEOUT_MS });
  database.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the answer leaves, as in PostgreSQL (docs/decisions/0009).
  database.pragma("synchronous = FULL");
  database.pragma("foreign_keys = ON");
  // 4 MB of pages in the process (better-sqlite3 builds SQLite with 16 MB): the operating
  // system caches the file as well, and a server's memory is bounded (docs/decisions/0005).
  database.pragma("cache_size = -4000");
  const db = new Kysely<Database>({
    dialect: recognisingOutages(new SqliteDialect({ database: reusingStatements(database) })),
  });
  return {
    db,
    dialect: "sqlite",
    close: () => db.destroy(),
    backupTo: async (file, onProgress) => {
      await database.backup(file, {
        progress: ({ totalPages, remainingPages }) => {
          onProgress?.(totalPages === 0 ? 1 : (totalPages - remainingPages) / totalPages);
          return 100;
        },
      });
    },
  };
}

const CACHED_STATEMENTS = 256;

/**
 * Kysely prepares every statement it runs, and SQLite compiles each one again: about half a
 * millisecond of a list page (`node --cpu-prof`). The queries are few and repeat, so the compiled
 * statements are kept, the least recently used dropped past CACHED_STATEMENTS. Kysely runs one
 * query at a time on the connection, and a stream left unfinished resets its statement.
 */
function reusingStatements(database: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string): SqliteDatabase.Statement => {
    const statement = statements.get(source) ?? database.prepare(source);
    statements.delete(source);
    statements.set(source, statement);
    if (statements.size > CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
    return statement;
  };
  return { prepare, close: () => database.close() };
}

function openPostgres(connectionString: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    max: 10,
  });
  // An idle client that loses its server emits here; without a listener Node would crash.
  pool.on("error", () => {});
  // A client in use that loses its server emits too, with no pool listener then: the query in
  // flight fails with the same error, which the driver answers as an outage.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: recognisingOutages(new PostgresDialect({ pool })) });
  return { db, dialect: "postgres", close: () => db.destroy() };
}

/** Opens the database and proves it answers, failing within a few seconds rather than hanging. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  try {
    handle = target.dialect === "sqlite" ? openSqlite(target.filename) : openPostgres(target.connectionString);
  } catch (error) {
    throw new DatabaseUnavailableError(`Cannot open the database: ${describe(error)}`, { cause: error });
  }
  try {
    await pingDatabase(handle.db);
  } catch (error) {
    await handle.close().catch(() => {});
    throw new DatabaseUnavailableError(`Cannot reach the database: ${describe(error)}`, { cause: error });
  }
  return handle;
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

function describe(error: unknown): string {
  // The driver's own words, under the DatabaseUnavailableError it was recognised as.
  if (error instanceof DatabaseUnavailableError && error.cause !== undefined) return describe(error.cause);
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
