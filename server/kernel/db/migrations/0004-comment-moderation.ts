import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Moderation: a status per comment (existing comments stay public), the salted hash of the
 * writer's address and why a comment was held; a spam list of address hashes; comments
 * closed per post; and a small key/value settings table for the writer's policy.
 */
export function commentModerationSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("comments")
        .addColumn("status", "text", (col) =>
          col
            .notNull()
            .defaultTo("approved")
            .check(sql`status in ('approved', 'pending', 'spam')`),
        )
        .execute();
      await db.schema.alterTable("comments").addColumn("ip_hash", "text").execute();
      await db.schema.alterTable("comments").addColumn("held_reason", "text").execute();

      // The public list of a post, the admin tabs (all posts, or one post's), and the
      // per-address flood and duplicate checks: each reads one range of one index.
      await db.schema.dropIndex("comments_post_id_created_at").execute();
      await db.schema
        .createIndex("comments_post_id_status_created_at")
        .on("comments")
        .columns(["post_id", "status", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("comments_status_created_at")
        .on("comments")
        .columns(["status", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("comments_ip_hash_created_at")
        .on("comments")
        .columns(["ip_hash", "created_at"])
        .execute();

      await db.schema
        .createTable("comment_spam_addresses")
        .addColumn("ip_hash", "text", (col) => col.primaryKey())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();

      await db.schema
        .alterTable("posts")
        .addColumn("comments_closed", "integer", (col) => col.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("settings")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("settings").ifExists().execute();
      await db.schema.alterTable("posts").dropColumn("comments_closed").execute();
      await db.schema.dropTable("comment_spam_addresses").ifExists().execute();
      for (const index of [
        "comments_ip_hash_created_at",
        "comments_status_created_at",
        "comments_post_id_status_created_at",
      ]) {
        await db.schema.dropIndex(index).ifExists().execute();
      }
      await db.schema
        .createIndex("comments_post_id_created_at")
        .on("comments")
        .columns(["post_id", "created_at"])
        .execute();
      for (const column of ["held_reason", "ip_hash", "status"]) {
        await db.schema.alterTable("comments").dropColumn(column).execute();
      }
    },
  };
}
