import type { Kysely } from "kysely";

// The publishing rule reads `publish_at` as well as `published` (repositories/posts.ts), so
// the list, count and search indexes carry it: a public count or page then reads only the
// index, never a post row. `id` follows `created_at` so "newest first, then by id" is the
// index order itself, walked backwards without a sort (docs/decisions/0005).
const REPLACED = [
  {
    old: { name: "posts_published_created_at", columns: ["published", "created_at"] },
    new: { name: "posts_public_created_at", columns: ["published", "created_at", "id", "publish_at"] },
  },
  {
    old: { name: "posts_category_published_created_at", columns: ["category", "published", "created_at"] },
    new: {
      name: "posts_category_public_created_at",
      columns: ["category", "published", "created_at", "id", "publish_at"],
    },
  },
  {
    old: { name: "posts_id_published_created_at", columns: ["id", "published", "created_at"] },
    new: { name: "posts_id_public_created_at", columns: ["id", "published", "created_at", "publish_at"] },
  },
];

export function publicListIndexesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const index of REPLACED) {
        await db.schema.createIndex(index.new.name).on("posts").columns(index.new.columns).execute();
        await db.schema.dropIndex(index.old.name).ifExists().execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const index of REPLACED) {
        await db.schema.createIndex(index.old.name).on("posts").columns(index.old.columns).execute();
        await db.schema.dropIndex(index.new.name).ifExists().execute();
      }
    },
  };
}
