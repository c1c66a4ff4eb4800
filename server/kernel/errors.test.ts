import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { DomainError, isDomainError } from "#domain/errors.ts";
import { recogniseOutage } from "./errors.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** What a database call that fails with `error` answers: "503" for DatabaseUnavailableError, else the error itself. */
async function outcome(error: unknown): Promise<unknown> {
  const thrown = recogniseOutage(error);
  if (isDomainError(thrown, "DATABASE_UNAVAILABLE")) {
    expect(thrown.cause).toBe(error);
    return "503";
  }
  return thrown;
}

function sqliteFile(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "recognise-outage-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return path.join(directory, "blog.sqlite");
}

/** The error better-sqlite3 throws for `run` on a fresh file database. */
function sqliteError(run: (database: SqliteDatabase.Database, file: string) => void): unknown {
  const file = sqliteFile();
  const database = new SqliteDatabase(file, { timeout: 0 });
  cleanups.push(() => database.close());
  try {
    run(database, file);
  } catch (error) {
    return error;
  }
  throw new Error("the statement did not fail");
}

function postgresError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, 0, "error");
  error.code = code;
  error.severity = "ERROR";
  return error;
}

describe("recogniseOutage", () => {
  it("answers an outage 503 with a wait, keeping the driver's error for the log", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(recogniseOutage(refused)).toMatchObject({ status: 503, retryAfterSeconds: 5, cause: refused });
  });

  it("turns SQLite's lock, file and disk failures into 503", async () => {
    const busy = sqliteError((database, file) => {
      database.exec("create table t (x)");
      const other = new SqliteDatabase(file);
      cleanups.push(() => other.close());
      other.exec("begin exclusive");
      database.exec("insert into t values (1)");
    });
    expect(busy).toMatchObject({ code: "SQLITE_BUSY" });
    expect(await outcome(busy)).toBe("503");

    const readOnly = sqliteError((_database, file) => {
      const reader = new SqliteDatabase(file, { readonly: true });
      cleanups.push(() => reader.close());
      reader.exec("create table t (x)");
    });
    expect(readOnly).toMatchObject({ code: "SQLITE_READONLY" });
    expect(await outcome(readOnly)).toBe("503");

    for (const code of ["SQLITE_IOERR_WRITE", "SQLITE_CANTOPEN", "SQLITE_FULL", "SQLITE_CORRUPT", "SQLITE_NOTADB"]) {
      expect(await outcome(new SqliteDatabase.SqliteError("disk trouble", code)), code).toBe("503");
    }
  });

  it("lets SQLite's constraint and statement errors through, as the bugs they are", async () => {
    const unique = sqliteError((database) => {
      database.exec("create table t (x unique)");
      database.exec("insert into t values (1); insert into t values (1)");
    });
    expect(unique).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    expect(await outcome(unique)).toBe(unique);

    const noSuchTable = sqliteError((database) => database.prepare("select * from missing"));
    expect(await outcome(noSuchTable)).toBe(noSuchTable);
  });

  it("turns PostgreSQL's connection, resource, shutdown and rollback classes into 503", async () => {
    for (const code of ["08006", "08001", "53300", "53100", "57P01", "57P03", "57014", "40001", "40P01", "58030"]) {
      expect(await outcome(postgresError(code, "server trouble")), code).toBe("503");
    }
  });

  it("lets PostgreSQL's constraint, data and syntax errors through", async () => {
    for (const code of ["23505", "23503", "22P02", "22001", "42601", "42P01"]) {
      const error = postgresError(code, "query trouble");
      expect(await outcome(error), code).toBe(error);
    }
  });

  it("turns a refused connection, a lost one and a full pool into 503", async () => {
    const client = new pg.Client({ host: "127.0.0.1", port: 1, connectionTimeoutMillis: 2_000 });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "ECONNREFUSED" });
    expect(await outcome(refused)).toBe("503");

    for (const message of [
      "Connection terminated unexpectedly",
      "Connection terminated due to connection timeout",
      "timeout exceeded when trying to connect",
      "Client has encountered a connection error and is not queryable",
    ]) {
      expect(await outcome(new Error(message)), message).toBe("503");
    }
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" });
    expect(await outcome(reset)).toBe("503");
    expect(await outcome(new AggregateError([reset], "connect failed"))).toBe("503");
  });

  it("lets programming errors through untouched, to be answered 500 and logged with their stack", async () => {
    const typeError = new TypeError("Cannot read properties of undefined (reading 'title')");
    const rangeError = new RangeError("Invalid time value");
    expect(await outcome(typeError)).toBe(typeError);
    expect(await outcome(rangeError)).toBe(rangeError);
    expect(await outcome(new Error("no result"))).toBeInstanceOf(Error);
    expect(await outcome("a string")).toBe("a string");
  });

  it("keeps domain errors as they are", async () => {
    const notFound = new DomainError("POST_NOT_FOUND", "Post not found");
    expect(await outcome(notFound)).toBe(notFound);
  });
});
