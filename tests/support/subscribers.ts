import type { Kysely } from "kysely";
import type { Database } from "../../server/kernel/db/schema.ts";

/**
 * Inserts `count` confirmed subscribers, reader0@example.com onwards (ids `reader-0`…), 500 rows
 * a statement: the big sends of the durability test and the newsletter benchmark start here.
 */
export async function insertActiveSubscribers(db: Kysely<Database>, count: number): Promise<void> {
  const at = new Date().toISOString();
  for (let start = 0; start < count; start += 500) {
    await db
      .insertInto("subscribers")
      .values(
        Array.from({ length: Math.min(500, count - start) }, (_, offset) => ({
          id: `reader-${start + offset}`,
          email: `reader${start + offset}@example.com`,
          state: "active" as const,
          source: "import" as const,
          created_at: at,
          confirmed_at: at,
          unsubscribed_at: null,
        })),
      )
      .execute();
  }
}
