import type { Kysely } from "kysely";
import type { Dialect } from "../connect.ts";

/**
 * `fediverse_posts.created_version`: the post's version (its updated_at) whose Create went out
 * last, which names that Create (`/ap/posts/{id}#create/{ms}`, docs/decisions/0015-fediverse.md),
 * so a post republished after its Delete gets a Create of its own and the outbox lists the one
 * sent. Null for a record made without sending and for one made before this migration, whose
 * Create, if any, went out as `#create`.
 */
export function fediverseCreateIdsSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("fediverse_posts")
        .addColumn("created_version", dialect === "postgres" ? "timestamptz" : "text")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("fediverse_posts").dropColumn("created_version").execute();
    },
  };
}
