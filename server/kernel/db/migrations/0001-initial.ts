import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";

// Migrations are immutable once merged: change the schema with a new file.
export function initialSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("posts")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("excerpt", "text", (col) => col.notNull())
        .addColumn("author", "text", (col) => col.notNull())
        .addColumn("cover_image", "text", (col) => col.notNull())
        .addColumn("category", "text", (col) => col.notNull())
        .addColumn("published", "integer", (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`published in (0, 1)`),
        )
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("updated_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("posts_published_created_at")
        .on("posts")
        .columns(["published", "created_at"])
        .execute();
      await db.schema
        .createIndex("posts_category_published_created_at")
        .on("posts")
        .columns(["category", "published", "created_at"])
        .execute();
      await db.schema.createIndex("posts_created_at").on("posts").column("created_at").execute();

      await db.schema
        .createTable("post_tags")
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("tag", "text", (col) => col.notNull())
        .addColumn("tag_key", "text", (col) => col.notNull())
        .addColumn("position", "integer", (col) => col.notNull())
        .addPrimaryKeyConstraint("post_tags_pk", ["post_id", "tag_key"])
        .execute();
      await db.schema.createIndex("post_tags_tag_key").on("post_tags").columns(["tag_key", "post_id"]).execute();

      if (dialect === "postgres") {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await db.schema
          .createTable("post_search")
          .addColumn("post_id", "text", (col) => col.primaryKey().references("posts.id").onDelete("cascade"))
          .addColumn("search_text", "text", (col) => col.notNull())
          .execute();
        // A blog writes rarely and searches often: without the pending list (fastupdate) a new
        // post is in the index at once, instead of in a list every search must scan.
        await sql`create index post_search_trigram on post_search using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(
          db,
        );
      } else {
        await sql`create virtual table post_search using fts5(post_id unindexed, search_text, tokenize = 'trigram case_sensitive 0')`.execute(
          db,
        );
      }

      await db.schema
        .createTable("comments")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("author", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex("comments_post_id_created_at")
        .on("comments")
        .columns(["post_id", "created_at"])
        .execute();

      await db.schema
        .createTable("admins")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("email", "text", (col) => col.notNull().unique())
        .addColumn("password_hash", "text", (col) => col.notNull())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id_hash", "text", (col) => col.primaryKey())
        .addColumn("admin_id", "text", (col) => col.notNull().references("admins.id").onDelete("cascade"))
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addColumn("last_seen_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema.createIndex("sessions_admin_id").on("sessions").column("admin_id").execute();

      await db.schema
        .createTable("rate_limits")
        .addColumn("key", "text", (col) => col.primaryKey())
        .addColumn("window_started_at", timestamp, (col) => col.notNull())
        .addColumn("hits", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("blocked_until", timestamp)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["rate_limits", "sessions", "admins", "comments", "post_search", "post_tags", "posts"]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
