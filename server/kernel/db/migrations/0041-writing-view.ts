import type { Kysely } from "kysely";

/**
 * The writer's view of a post's body, Visual or Markdown (issue 36, docs/decisions/0032), kept
 * with the account so it follows the writer to every browser; Markdown until they pick Visual.
 */
export function writingViewSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("admins")
        .addColumn("writing_view", "text", (col) => col.notNull().defaultTo("markdown"))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("admins").dropColumn("writing_view").execute();
    },
  };
}
