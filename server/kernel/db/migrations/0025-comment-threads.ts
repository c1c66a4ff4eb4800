import type { Kysely } from "kysely";

/**
 * One level of threads under a post (issue 34): `comments.parent_id` names the comment a reply
 * answers (always a top-level comment of the same post; null for a top-level comment), and
 * `comments.author_user_id` names the signed-in writer who wrote it (null for readers, whose
 * comments carry only the name they gave). Replies are read per page of parents, oldest first,
 * hence the index on (parent_id, created_at).
 */
export function commentThreadsSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("comments").addColumn("parent_id", "text").execute();
      await db.schema.alterTable("comments").addColumn("author_user_id", "text").execute();
      await db.schema
        .createIndex("comments_parent_created")
        .on("comments")
        .columns(["parent_id", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("comments_parent_created").execute();
      await db.schema.alterTable("comments").dropColumn("author_user_id").execute();
      await db.schema.alterTable("comments").dropColumn("parent_id").execute();
    },
  };
}
