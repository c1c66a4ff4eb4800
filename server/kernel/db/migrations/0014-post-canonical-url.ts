import type { Kysely } from "kysely";

/**
 * Where a post was first published, for writing that lives elsewhere too: its page names that
 * address as canonical. Empty for a post first published here, as `cover_image` is for a post
 * without a cover, so both databases add the column the same way, filled for every post at once.
 */
export function postCanonicalUrlSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("posts")
        .addColumn("canonical_url", "text", (col) => col.notNull().defaultTo(""))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("posts").dropColumn("canonical_url").execute();
    },
  };
}
