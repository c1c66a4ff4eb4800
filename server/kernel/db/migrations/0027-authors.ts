import type { Kysely } from "kysely";
import { firstFreeSlug, slugFromName } from "../../slugs.ts";
import type { Dialect } from "../connect.ts";

/**
 * Tags and authors have pages (issue 34, docs/decisions/0022). An account is an author: its
 * `slug` (unique; /author/{slug}), `bio` and `avatar` (the hash of its square image in the media
 * store; empty: none). Existing accounts get slugs from their display names, oldest first, in
 * JavaScript so both databases get the same ones. The column is nullable only because SQLite
 * cannot add a NOT NULL column to a filled table; every account has one.
 *
 * The lists are O(page): an author's posts are the published posts bylined with the author's
 * name, walked newest first on (author, published, created_at, id, publish_at) as a category's
 * are; a tag's through `post_tags.created_at`, the post's own time copied onto its tag rows, so
 * (tag_key, created_at, post_id) walks a tag newest first without sorting its posts.
 */
export function authorsSchema(dialect: Dialect) {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as Kysely<{
        admins: { id: string; display_name: string; created_at: string; slug: string | null };
        post_tags: { post_id: string; created_at: string | null };
        posts: { id: string; created_at: string };
      }>;
      await db.schema.alterTable("admins").addColumn("slug", "text").execute();
      await db.schema
        .alterTable("admins")
        .addColumn("bio", "text", (col) => col.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("admins")
        .addColumn("avatar", "text", (col) => col.notNull().defaultTo(""))
        .execute();
      // A blog has a handful of accounts: one read.
      const accounts = await db
        .selectFrom("admins")
        .select(["id", "display_name"])
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      const used = new Set<string>();
      for (const account of accounts) {
        const slug = await firstFreeSlug(slugFromName(account.display_name), async (candidate) => used.has(candidate));
        used.add(slug);
        await db.updateTable("admins").set({ slug }).where("id", "=", account.id).execute();
      }
      await db.schema.createIndex("admins_slug").unique().on("admins").column("slug").execute();
      await db.schema
        .createIndex("posts_author_public_created_at")
        .on("posts")
        .columns(["author", "published", "created_at", "id", "publish_at"])
        .execute();

      await db.schema.alterTable("post_tags").addColumn("created_at", timestamp).execute();
      await db
        .updateTable("post_tags")
        .set((eb) => ({
          created_at: eb.selectFrom("posts").select("posts.created_at").whereRef("posts.id", "=", "post_tags.post_id"),
        }))
        .execute();
      await db.schema
        .createIndex("post_tags_tag_key_created_at")
        .on("post_tags")
        .columns(["tag_key", "created_at", "post_id"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("post_tags_tag_key_created_at").execute();
      await db.schema.alterTable("post_tags").dropColumn("created_at").execute();
      await db.schema.dropIndex("posts_author_public_created_at").execute();
      await db.schema.dropIndex("admins_slug").execute();
      await db.schema.alterTable("admins").dropColumn("avatar").execute();
      await db.schema.alterTable("admins").dropColumn("bio").execute();
      await db.schema.alterTable("admins").dropColumn("slug").execute();
    },
  };
}
