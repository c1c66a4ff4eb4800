import type { Kysely } from "kysely";
import { firstFreeSlug, slugFromTitle } from "../../slugs.ts";
import type { Dialect } from "../connect.ts";

const BACKFILL_BATCH = 500;

/**
 * Posts get URL slugs, and the slugs a post had before keep answering with a redirect.
 * Slugs are computed here in JavaScript, not SQL, so both databases get the same ones.
 */
export function postSlugsSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as Kysely<{
        posts: { id: string; title: string; created_at: string; slug: string | null };
      }>;
      await db.schema.alterTable("posts").addColumn("slug", "text").execute();

      // Oldest first, so the older of two same-titled posts keeps the plain slug.
      const used = new Set<string>();
      let after: { created_at: string; id: string } | undefined;
      for (;;) {
        let query = db
          .selectFrom("posts")
          .select(["id", "title", "created_at"])
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
        for (const row of rows) {
          const slug = await firstFreeSlug(slugFromTitle(row.title), async (candidate) => used.has(candidate));
          used.add(slug);
          await db.updateTable("posts").set({ slug }).where("id", "=", row.id).execute();
        }
        if (rows.length < BACKFILL_BATCH) break;
        after = rows.at(-1);
      }

      await db.schema.createIndex("posts_slug").unique().on("posts").column("slug").execute();
      // Sitemaps page through published posts by id.
      await db.schema.createIndex("posts_published_id").on("posts").columns(["published", "id"]).execute();
      await db.schema
        .createTable("post_slug_history")
        .addColumn("slug", "text", (col) => col.primaryKey())
        .addColumn("post_id", "text", (col) => col.notNull().references("posts.id").onDelete("cascade"))
        .addColumn("created_at", timestamp, (col) => col.notNull())
        .execute();
      await db.schema.createIndex("post_slug_history_post_id").on("post_slug_history").column("post_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("post_slug_history").ifExists().execute();
      await db.schema.dropIndex("posts_published_id").ifExists().execute();
      await db.schema.dropIndex("posts_slug").ifExists().execute();
      await db.schema.alterTable("posts").dropColumn("slug").execute();
    },
  };
}
