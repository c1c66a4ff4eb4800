import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { DatabaseUnavailableError, DomainError } from "#domain/errors.ts";

/**
 * SQLite's result codes for a database that cannot answer now: locked, out of disk or memory,
 * unreadable, read-only, damaged. Extended codes (SQLITE_IOERR_WRITE) start with these.
 * Everything else (SQLITE_CONSTRAINT, SQLITE_ERROR for bad SQL, SQLITE_MISMATCH…) is a bug.
 */
const SQLITE_UNAVAILABLE = [
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_IOERR",
  "SQLITE_CANTOPEN",
  "SQLITE_FULL",
  "SQLITE_READONLY",
  "SQLITE_CORRUPT",
  "SQLITE_NOTADB",
  "SQLITE_NOMEM",
  "SQLITE_PROTOCOL",
  "SQLITE_INTERRUPT",
];

/**
 * PostgreSQL's SQLSTATE classes for the same: connection exception (08), transaction rollback
 * by deadlock or serialisation (40, worth a retry), insufficient resources (53), operator
 * intervention such as a shutdown or a statement timeout (57), system error (58), internal
 * error or corruption (XX). Constraint (23), data (22) and syntax (42) errors are bugs.
 */
const POSTGRES_UNAVAILABLE_CLASSES = new Set(["08", "40", "53", "57", "58", "XX"]);

/** Node's codes for a connection to the database server that failed or broke. */
const NETWORK_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** node-postgres and its pool say these with a message alone: a lost or refused connection, a full pool. */
const POSTGRES_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/** Whether `error` says the database could not answer (a 503), rather than that the code asking it is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof SqliteDatabase.SqliteError) {
    return SQLITE_UNAVAILABLE.some((code) => error.code === code || error.code.startsWith(`${code}_`));
  }
  if (error instanceof pg.DatabaseError) {
    return POSTGRES_UNAVAILABLE_CLASSES.has(error.code?.slice(0, 2) ?? "");
  }
  const { code } = error as { code?: unknown };
  if (typeof code === "string" && NETWORK_FAILURES.has(code)) return true;
  if (POSTGRES_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // A connection tried on several addresses fails with each one's error.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error.cause !== undefined && isDatabaseUnavailable(error.cause);
}

/**
 * `error` as the caller of a database call should see it: a failure of the database itself
 * (driver or connection, as `isDatabaseUnavailable` knows them) becomes one
 * DatabaseUnavailableError keeping the cause for the log, so routes answer 503 with their spec
 * message. Anything else (a TypeError, a constraint the code should have checked) is a bug and
 * stays as it is, to reach the error boundary as a 500 logged with its stack. The database
 * driver applies it to every call (server/kernel/db/outages.ts).
 */
export function recogniseOutage(error: unknown): unknown {
  if (error instanceof DomainError || !isDatabaseUnavailable(error)) return error;
  return new DatabaseUnavailableError("Database call failed", { cause: error });
}
