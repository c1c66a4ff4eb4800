import type { Kysely } from "kysely";

// Search joins every match to its post to keep only the public ones and order them by date.
// With (id, published, created_at) in one index that join never reads a post row, so a
// page of search results costs index lookups, not post bodies (docs/decisions/0005).
export function searchPageIndexSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex("posts_id_published_created_at")
        .on("posts")
        .columns(["id", "published", "created_at"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("posts_id_published_created_at").ifExists().execute();
    },
  };
}
