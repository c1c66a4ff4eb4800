import type { Kysely } from "kysely";

/**
 * Embeds (issue 36, docs/decisions/0032-visual-editor.md "Embeds"): `link_previews` keeps what
 * the blog read from another page's Open Graph tags, once per URL as written, so a bookmark card
 * is rendered from the blog's own copy and a reader's request never leaves the server.
 * `title` is null when the fetch failed or the page had none (`failure` says why in plain words);
 * `fetched_at` (ISO text) lets a failed URL be tried again later rather than at every save.
 */
export function linkPreviewsSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("link_previews")
        .addColumn("url", "text", (col) => col.primaryKey())
        .addColumn("title", "text")
        .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("site_name", "text", (col) => col.notNull().defaultTo(""))
        .addColumn("failure", "text")
        .addColumn("fetched_at", "text", (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("link_previews").execute();
    },
  };
}
