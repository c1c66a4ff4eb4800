import type { Kysely } from "kysely";

/**
 * The fediverse's incoming side (issue 25): who follows the blog, the likes and boosts of its
 * posts, and replies kept as comments. A follower is keyed by its actor URL, so a second Follow
 * from the same account updates one row; reactions are one row per (post, kind, actor) and carry
 * the activity's id, which an Undo names. A reply is a comment with the note's URL (unique, so a
 * note delivered twice is one comment) and who wrote it. Times are ISO text on both databases.
 */
export function fediverseSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("fediverse_followers")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("actor_url", "text", (col) => col.notNull().unique())
        .addColumn("handle", "text", (col) => col.notNull())
        .addColumn("server", "text", (col) => col.notNull())
        .addColumn("inbox_url", "text", (col) => col.notNull())
        .addColumn("shared_inbox_url", "text")
        .addColumn("follow_activity_id", "text")
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      // The admin list (one state, newest first) and the followers collection (accepted ones) read one range.
      await db.schema
        .createIndex("fediverse_followers_state_created_at")
        .on("fediverse_followers")
        .columns(["state", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("fediverse_reactions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("actor_url", "text", (col) => col.notNull())
        .addColumn("activity_id", "text", (col) => col.notNull().unique())
        .addColumn("created_at", "text", (col) => col.notNull())
        .addUniqueConstraint("fediverse_reactions_post_kind_actor", ["post_id", "kind", "actor_url"])
        .execute();

      // SQLite cannot add a UNIQUE column to a filled table; a unique index does the same on both.
      await db.schema.alterTable("comments").addColumn("remote_note_url", "text").execute();
      await db.schema.alterTable("comments").addColumn("remote_actor_url", "text").execute();
      await db.schema.alterTable("comments").addColumn("remote_actor_handle", "text").execute();
      await db.schema
        .createIndex("comments_remote_note_url")
        .unique()
        .on("comments")
        .column("remote_note_url")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("comments_remote_note_url").ifExists().execute();
      for (const column of ["remote_actor_handle", "remote_actor_url", "remote_note_url"]) {
        await db.schema.alterTable("comments").dropColumn(column).execute();
      }
      await db.schema.dropTable("fediverse_reactions").ifExists().execute();
      await db.schema.dropTable("fediverse_followers").ifExists().execute();
    },
  };
}
