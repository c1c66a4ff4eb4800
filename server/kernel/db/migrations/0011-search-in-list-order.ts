import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";
import { firstSearchKey } from "../search-keys.ts";

const BACKFILL_BATCH = 500;

interface Tables {
  posts: { id: string; published: number; created_at: Date | string; search_key: number | null };
  post_search: { rowid: number | null; post_id: string; search_text: string };
}

/**
 * Search in list order (docs/decisions/0005). Each published post's search row is keyed by a
 * number that sorts like the list, newest last (`posts.search_key`, kept on the post so a
 * save finds its row without a scan): a page of results is the index read backwards, and the
 * count never joins to posts. Only published posts have a search row; scheduled ones not yet
 * public are left out by their keys at query time. The text is kept lower-cased, so PostgreSQL
 * checks matches with `like` rather than `ilike` (SQLite's lower() folds ASCII only; its FTS5
 * index folds the rest).
 */
export function searchInListOrderSchema(dialect: Dialect) {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as Kysely<Tables>;
      await db.schema.alterTable("posts").addColumn("search_key", "bigint").execute();

      // Oldest first, so equal timestamps take consecutive keys; keyset batches by (created_at, id).
      const keys = new Map<string, number>();
      let previous = 0;
      let after: { created_at: Date | string; id: string } | undefined;
      for (;;) {
        let query = db
          .selectFrom("posts")
          .select(["id", "created_at"])
          .where("published", "=", 1)
          .orderBy("created_at")
          .orderBy("id")
          .limit(BACKFILL_BATCH);
        if (after) {
          const { created_at, id } = after;
          query = query.where((eb) =>
            eb.or([eb("created_at", ">", created_at), eb.and([eb("created_at", "=", created_at), eb("id", ">", id)])]),
          );
        }
        const rows = await query.execute();
        if (rows.length === 0) break;
        for (const row of rows) {
          const first = firstSearchKey(row.created_at);
          previous = Math.max(first, previous + 1);
          keys.set(row.id, previous);
          await db.updateTable("posts").set({ search_key: previous }).where("id", "=", row.id).execute();
        }
        after = rows.at(-1);
      }

      if (dialect === "postgres") {
        await db.schema.alterTable("post_search").addColumn("rowid", "bigint").execute();
        await sql`update post_search set rowid = posts.search_key, search_text = lower(search_text)
          from posts where posts.id = post_search.post_id`.execute(db);
        await db.deleteFrom("post_search").where("rowid", "is", null).execute();
        await sql`alter table post_search alter column rowid set not null`.execute(db);
        await db.schema.createIndex("post_search_rowid").unique().on("post_search").column("rowid").execute();
        return;
      }
      await sql`create virtual table post_search_keyed using fts5(post_id unindexed, search_text, tokenize = 'trigram case_sensitive 0')`.execute(
        db,
      );
      await sql`insert into post_search_keyed (rowid, post_id, search_text)
        select posts.search_key, post_search.post_id, lower(post_search.search_text)
        from post_search join posts on posts.id = post_search.post_id
        where posts.search_key is not null`.execute(db);
      await sql`drop table post_search`.execute(db);
      await sql`alter table post_search_keyed rename to post_search`.execute(db);
    },

    async down(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as Kysely<Tables>;
      // Drafts stay without search rows: the older search reads rows only through the
      // publishing filter, and writes a draft's row again at its next save.
      if (dialect === "postgres") {
        await db.schema.dropIndex("post_search_rowid").ifExists().execute();
        await db.schema.alterTable("post_search").dropColumn("rowid").execute();
      } else {
        await sql`create virtual table post_search_unkeyed using fts5(post_id unindexed, search_text, tokenize = 'trigram case_sensitive 0')`.execute(
          db,
        );
        await sql`insert into post_search_unkeyed (post_id, search_text) select post_id, search_text from post_search`.execute(
          db,
        );
        await sql`drop table post_search`.execute(db);
        await sql`alter table post_search_unkeyed rename to post_search`.execute(db);
      }
      await db.schema.alterTable("posts").dropColumn("search_key").execute();
    },
  };
}
