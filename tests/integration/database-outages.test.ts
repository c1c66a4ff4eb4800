import { connect, createServer, type Server, type Socket } from "node:net";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isDomainError } from "#domain/errors.ts";
import { type DatabaseHandle, openDatabase } from "../../server/kernel/db/connect.ts";
import { findAdminByEmail, insertAdmin, listAdmins } from "../../server/accounts/repositories/admins.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";

// The database driver itself tells an outage from a bug (server/kernel/db/outages.ts): services call
// repositories plainly and still answer 503 when the database cannot, 500 for a bug.

const admin = { email: "ada@example.com", passwordHash: "hash", createdAt: "2026-01-01T00:00:00.000Z" };

/** A TCP door to PostgreSQL that the test can shut, as a database server going away would. */
async function openDoorTo(target: URL): Promise<{ port: number; shut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const door: Server = createServer((incoming) => {
    const outgoing = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => door.listen(0, "127.0.0.1", resolve));
  const { port } = door.address() as { port: number };
  return {
    port,
    shut: async () => {
      const closed = new Promise<void>((resolve) => door.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe.each(testDialects())("the database driver on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle & { url: string };
  const extraHandles: DatabaseHandle[] = [];

  beforeEach(async () => {
    if (skip) return;
    handle = await createTestDatabase(dialect);
  });

  afterEach(async () => {
    if (skip) return;
    for (const extra of extraHandles.splice(0)) await extra.close().catch(() => {});
    await handle.close();
  });

  it.skipIf(skip)("answers as the database does while it is there", async () => {
    const created = await insertAdmin(handle.db, admin);
    expect(await findAdminByEmail(handle.db, admin.email)).toMatchObject({ id: created.id, email: admin.email });
    expect(await listAdmins(handle.db, { limit: 10, offset: 0 })).toHaveLength(1);
  });

  it.skipIf(skip)("lets a constraint violation through as it is, a bug answered 500", async () => {
    await insertAdmin(handle.db, admin);
    const duplicate = await insertAdmin(handle.db, admin).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDomainError(duplicate)).toBe(false);
    expect(duplicate).toMatchObject({ code: dialect === "sqlite" ? "SQLITE_CONSTRAINT_UNIQUE" : "23505" });
  });

  it.skipIf(skip || dialect !== "sqlite")(
    "turns a locked SQLite file into DatabaseUnavailableError, keeping the cause",
    async () => {
      const other = new SqliteDatabase(handle.url.slice("file:".length));
      try {
        other.exec("begin exclusive");
        await sql`pragma busy_timeout = 0`.execute(handle.db);
        const failure = await insertAdmin(handle.db, admin).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(DatabaseUnavailableError);
        expect((failure as DatabaseUnavailableError).cause).toMatchObject({ code: "SQLITE_BUSY" });
        other.exec("rollback");
        // The transaction that failed to write left nothing behind, and the next call answers.
        expect(await findAdminByEmail(handle.db, admin.email)).toBeUndefined();
        await insertAdmin(handle.db, admin);
      } finally {
        other.close();
      }
    },
  );

  it.skipIf(skip || dialect !== "postgres")(
    "turns a PostgreSQL server gone away into DatabaseUnavailableError, keeping the cause",
    async () => {
      const target = new URL(handle.url);
      const door = await openDoorTo(target);
      const through = new URL(handle.url);
      through.hostname = "127.0.0.1";
      through.port = String(door.port);
      const remote = await openDatabase({ dialect: "postgres", connectionString: through.href });
      extraHandles.push(remote);
      expect(await findAdminByEmail(remote.db, admin.email)).toBeUndefined();

      await door.shut();
      for (const attempt of [1, 2]) {
        const failure = await findAdminByEmail(remote.db, admin.email).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, `attempt ${attempt}`).toBeInstanceOf(DatabaseUnavailableError);
        expect((failure as DatabaseUnavailableError).cause).toBeInstanceOf(Error);
      }
      // Its pool now has nothing to hand out, and cannot connect: refused, still an outage.
      const refused = await remote.db
        .transaction()
        .execute((trx) => insertAdmin(trx, admin))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(DatabaseUnavailableError);
      expect((refused as DatabaseUnavailableError).cause).toMatchObject({ code: "ECONNREFUSED" });
    },
  );

  it.skipIf(skip || dialect !== "postgres")(
    "refuses to start on a port nothing listens on, saying why in the driver's words",
    async () => {
      const closed = new URL(handle.url);
      closed.hostname = "127.0.0.1";
      closed.port = "1";
      const failure = await openDatabase({ dialect: "postgres", connectionString: closed.href }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect((failure as Error).message).toBe("Cannot reach the database: connect ECONNREFUSED 127.0.0.1:1");
    },
  );
});
