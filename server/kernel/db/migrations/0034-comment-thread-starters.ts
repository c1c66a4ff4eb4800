import { type Kysely, sql } from "kysely";

/**
 * A post's threads are its approved top-level comments, newest first (docs/decisions/0023):
 * this partial index holds only top-level comments, so a page of threads and their count read
 * no reply. Partial indexes work alike on SQLite and PostgreSQL.
 */
export function commentThreadStartersSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex("comments_thread_starters")
        .on("comments")
        .columns(["post_id", "status", "created_at", "id"])
        .where(sql.ref("parent_id"), "is", null)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("comments_thread_starters").execute();
    },
  };
}
