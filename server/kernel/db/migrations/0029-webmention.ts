import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * Webmention in and out (issue 38, docs/decisions/0026-webmention.md). `webmention_jobs` is the
 * durable queue both ways: a received mention to verify (`receive`: another page's `source`
 * naming one of ours as `target`) or a page of ours to announce (`send`); one row per (direction,
 * source, target), claimed with a lease like the email outbox, and asked again by moving
 * `generation`, so a claim in flight finishes as `queued` when a newer request came meanwhile.
 * `linked` is 0 for a send whose post no longer links the target (it is told once, then forgotten).
 * `webmentions` keeps each verified mention of a post: its kind, author and, for a reply, the
 * comment it became. `comments.remote_via` says which network a remote comment came from.
 * `posts.webmentions_off` is the editor's per-post switch (0: the post notifies the pages it links);
 * `posts.webmentions_queued_at` when its notices were last queued, so a scheduled post whose time
 * came is announced once, by whichever server looks first (a timestamp, as `publish_at` is).
 */
export function webmentionSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("webmention_jobs")
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) =>
          dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn("direction", "text", (col) => col.notNull())
        .addColumn("source", "text", (col) => col.notNull())
        .addColumn("target", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull())
        .addColumn("generation", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("linked", "integer", (col) => col.notNull().defaultTo(1))
        .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "text", (col) => col.notNull())
        .addColumn("claimed_until", "text")
        .addColumn("last_error", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("finished_at", "text")
        .addUniqueConstraint("webmention_jobs_direction_source_target", ["direction", "source", "target"])
        .execute();
      await db.schema
        .createIndex("webmention_jobs_state_next_attempt_at")
        .on("webmention_jobs")
        .columns(["state", "next_attempt_at", "id"])
        .execute();
      await db.schema
        .createTable("webmentions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("source", "text", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull())
        .addColumn("author_name", "text", (col) => col.notNull())
        .addColumn("author_url", "text", (col) => col.notNull())
        .addColumn("comment_id", "text")
        .addColumn("created_at", "text", (col) => col.notNull())
        .addColumn("updated_at", "text", (col) => col.notNull())
        .addUniqueConstraint("webmentions_post_source", ["post_id", "source"])
        .execute();
      await db.schema.alterTable("comments").addColumn("remote_via", "text").execute();
      await sql`update comments set remote_via = 'fediverse' where remote_note_url is not null`.execute(db);
      await db.schema
        .alterTable("posts")
        .addColumn("webmentions_off", "integer", (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("posts")
        .addColumn("webmentions_queued_at", dialect === "postgres" ? "timestamptz" : "text")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("posts").dropColumn("webmentions_queued_at").execute();
      await db.schema.alterTable("posts").dropColumn("webmentions_off").execute();
      await db.schema.alterTable("comments").dropColumn("remote_via").execute();
      await db.schema.dropTable("webmentions").ifExists().execute();
      await db.schema.dropTable("webmention_jobs").ifExists().execute();
    },
  };
}
