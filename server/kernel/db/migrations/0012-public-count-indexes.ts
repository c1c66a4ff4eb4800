import { type Kysely, sql } from "kysely";

// Counting a category's public posts, or all of them, reads one entry per published post of
// the list indexes (migration 0010). Partial indexes on published posts alone, keyed by what
// the publishing rule still has to check, are a twentieth of their size: most posts share a
// null `publish_at`, which PostgreSQL stores once per key. PostgreSQL 15 at 100,000 posts: a
// category count 3.6 → 1.7 ms, the /blog count 15.4 → 12.6 ms (docs/decisions/0005). SQLite
// has the same indexes and keeps its plans (its counts take a bound `published`).
const INDEXES = [
  { name: "posts_public_category_publish_at", columns: ["category", "publish_at"] },
  { name: "posts_public_publish_at", columns: ["publish_at"] },
];

export function publicCountIndexesSchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const index of INDEXES) {
        await db.schema
          .createIndex(index.name)
          .on("posts")
          .columns(index.columns)
          .where(sql.ref("published"), "=", 1)
          .execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const index of INDEXES) await db.schema.dropIndex(index.name).ifExists().execute();
    },
  };
}
