import { type Kysely, sql } from "kysely";
import type { Dialect } from "../connect.ts";
import { renderPostBody } from "../../../render/index.ts";

const BACKFILL_BATCH = 100;

/**
 * The writer's desk (issue 11): a format per post with its rendered HTML and reading time
 * stored at save time, scheduled publishing, revisions and private preview links.
 * Posts written before this are HTML; their stored HTML is rendered here once, in batches,
 * so reads never have to render or sanitise.
 */
export function writersDeskSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("posts")
        .addColumn("format", "text", (col) =>
          col
            .notNull()
            .defaultTo("html")
            .check(sql`format in ('markdown', 'html')`),
        )
        .execute();
      await db.schema
        .alterTable("posts")
        .addColumn("content_html", "text", (col) => col.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("posts")
        .addColumn("reading_minutes", "integer", (col) => col.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable("posts").addColumn("publish_at", timestamp).execute();
      await db.schema.createIndex("posts_publish_at").on("posts").column("publish_at").execute();

      const posts = db as unknown as Kysely<{
        posts: { id: string; content: string; content_html: string; reading_minutes: number };
      }>;
      let after = "";
      for (;;) {
        const batch = await posts
          .selectFrom("posts")
          .select(["id", "content"])
          .where("id", ">", after)
          .orderBy("id")
          .limit(BACKFILL_BATCH)
          .execute();
        for (const row of batch) {
          const rendered = renderPostBody("html", row.content);
          await posts
            .updateTable("posts")
            .set({ content_html: rendered.html, reading_minutes: rendered.readingMinutes })
            .where("id", "=", row.id)
            .execute();
        }
        if (batch.length < BACKFILL_BATCH) break;
        after = batch[batch.length - 1]!.id;
      }

      await db.schema
        .createTable("post_revisions")
        .addColumn("id", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        // 1, 2, 3… per post: orders revisions exactly even when two share a timestamp.
        .addColumn("number", "integer", (col) => col.notNull())
        .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('save', 'autosave', 'restore')`))
        .addColumn("saved_by", "text", (col) => col.notNull())
        .addColumn("title", "text", (col) => col.notNull())
        .addColumn("content", "text", (col) => col.notNull())
        .addColumn("format", "text", (col) => col.notNull())
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .addUniqueConstraint("post_revisions_post_number", ["post_id", "number"])
        .execute();

      await db.schema
        .createTable("post_preview_tokens")
        // SHA-256 of the link's token, like sessions: the database never holds a usable link.
        .addColumn("token_hash", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema.createIndex("post_preview_tokens_post_id").on("post_preview_tokens").column("post_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("post_preview_tokens").ifExists().execute();
      await db.schema.dropTable("post_revisions").ifExists().execute();
      await db.schema.dropIndex("posts_publish_at").ifExists().execute();
      for (const column of ["publish_at", "reading_minutes", "content_html", "format"]) {
        await db.schema.alterTable("posts").dropColumn(column).execute();
      }
    },
  };
}
