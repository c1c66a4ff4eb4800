import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { createTestDatabase } from "../support/databases.ts";

// SQLite keeps each compiled statement for the next query with the same text (server/kernel/db/connect.ts).
interface NotesDatabase {
  notes: { id: number; body: string };
}

describe("SQLite's reused statements", () => {
  let handle: DatabaseHandle;
  /** The same connection, typed for the table these tests create. */
  let notesDb: Kysely<NotesDatabase>;

  beforeEach(async () => {
    handle = await createTestDatabase("sqlite");
    notesDb = handle.db as unknown as Kysely<NotesDatabase>;
    await sql`create table notes (id integer primary key, body text not null)`.execute(notesDb);
    await notesDb
      .insertInto("notes")
      .values([1, 2, 3].map((id) => ({ id, body: `note ${id}` })))
      .execute();
  });

  afterEach(async () => {
    await handle.close();
  });

  const bodyOf = async (id: number) =>
    (await sql<{ body: string }>`select body from notes where id = ${id}`.execute(handle.db)).rows[0]?.body;

  it("answer each run with its own parameters", async () => {
    expect([await bodyOf(1), await bodyOf(2), await bodyOf(3), await bodyOf(1)]).toEqual([
      "note 1",
      "note 2",
      "note 3",
      "note 1",
    ]);
  });

  it("serve a query again after a stream of it was left unfinished", async () => {
    const notes = notesDb.selectFrom("notes").select("body").orderBy("id");
    for await (const row of notes.stream()) {
      expect(row.body).toBe("note 1");
      break;
    }
    expect((await notes.execute()).map((row) => row.body)).toEqual(["note 1", "note 2", "note 3"]);
  });

  it("see a column added after the statement was first run", async () => {
    const everything = () => sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(handle.db);
    expect((await everything()).rows[0]).toEqual({ id: 1, body: "note 1" });
    await sql`alter table notes add column mood text not null default 'calm'`.execute(handle.db);
    expect((await everything()).rows[0]).toEqual({ id: 1, body: "note 1", mood: "calm" });
  });

  it("keep working past the number of statements kept", async () => {
    for (let offset = 0; offset < 300; offset += 1) {
      await sql`select ${sql.raw(String(offset))} + id as value from notes where id = ${1}`.execute(handle.db);
    }
    expect(await bodyOf(3)).toBe("note 3");
    const first = await sql<{ value: number }>`select ${sql.raw("0")} + id as value from notes where id = ${1}`.execute(
      handle.db,
    );
    expect(first.rows).toEqual([{ value: 1 }]);
  });
});
