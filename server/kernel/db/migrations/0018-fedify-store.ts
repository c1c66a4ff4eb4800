import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Fedify's key–value store and message queue on the blog's own database, and what the blog last
 * told the fediverse about each post (docs/decisions/0015-fediverse.md).
 *
 * `fedify_kv` keys are Fedify's key arrays as JSON text; `expires_at` is ISO text, null for never.
 * `fedify_messages` is the queue: a worker claims a message by setting `claimed_until` (a lease),
 * so a crash leaves it to be claimed again; `ordering_key` keeps messages of one key in order.
 * `fediverse_posts` has no foreign key: the row must outlive a deleted post, whose Delete it sends;
 * a trigger marks it when the post goes, so finding deleted posts reads only those rows.
 * Every post already public when this runs counts as announced, so the first start sends nothing old.
 * `fediverse_keys` holds the actor's key pairs (JWK), in a table of their own so no export carries them.
 */
export function fedifyStoreSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("fedify_kv")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("value", "text", (col) => col.notNull())
        .addColumn("expires_at", "text")
        .execute();

      await db.schema
        .createTable("fedify_messages")
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) =>
          dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn("payload", "text", (col) => col.notNull())
        .addColumn("ordering_key", "text")
        .addColumn("available_at", "text", (col) => col.notNull())
        .addColumn("claimed_until", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("fedify_messages_available_at")
        .on("fedify_messages")
        .columns(["available_at", "id"])
        .execute();
      await db.schema
        .createIndex("fedify_messages_ordering_key")
        .on("fedify_messages")
        .columns(["ordering_key", "id"])
        .execute();

      await db.schema
        .createTable("fediverse_posts")
        .addColumn("post_id", "text", (col) => col.primaryKey())
        .addColumn("state", "text", (col) => col.notNull())
        // The post's updated_at when its Create or Update was sent: a later one means an edit to send.
        .addColumn("sent_version", timestamp, (col) => col.notNull())
        // Set by the trigger below when the post is deleted: its Delete is due.
        .addColumn("post_deleted", "integer", (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex("fediverse_posts_post_deleted_state")
        .on("fediverse_posts")
        .columns(["post_deleted", "state"])
        .execute();
      if (dialect === "postgres") {
        await sql`create function fediverse_posts_mark_deleted() returns trigger language plpgsql as $$
          begin
            update fediverse_posts set post_deleted = 1 where post_id = old.id;
            return old;
          end $$`.execute(db);
        await sql`create trigger fediverse_posts_mark_deleted after delete on posts
          for each row execute function fediverse_posts_mark_deleted()`.execute(db);
      } else {
        await sql`create trigger fediverse_posts_mark_deleted after delete on posts begin
          update fediverse_posts set post_deleted = 1 where post_id = old.id;
        end`.execute(db);
      }

      await db.schema
        .createTable("fediverse_keys")
        .addColumn("actor", "text", (col) => col.primaryKey())
        .addColumn("key_pairs", "text", (col) => col.notNull())
        .execute();

      // The delivery sweep reads only the posts saved in its window.
      await db.schema.createIndex("posts_updated_at").on("posts").column("updated_at").execute();

      const now = new Date().toISOString();
      await sql`
        insert into fediverse_posts (post_id, state, sent_version)
        select id, 'created', updated_at from posts
        where published = 1 and (publish_at is null or publish_at <= ${now})
      `.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") {
        await sql`drop trigger if exists fediverse_posts_mark_deleted on posts`.execute(db);
        await sql`drop function if exists fediverse_posts_mark_deleted()`.execute(db);
      } else {
        await sql`drop trigger if exists fediverse_posts_mark_deleted`.execute(db);
      }
      await db.schema.dropIndex("posts_updated_at").ifExists().execute();
      await db.schema.dropTable("fediverse_keys").ifExists().execute();
      await db.schema.dropTable("fediverse_posts").ifExists().execute();
      await db.schema.dropTable("fedify_messages").ifExists().execute();
      await db.schema.dropTable("fedify_kv").ifExists().execute();
    },
  };
}
