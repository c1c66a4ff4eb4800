// Which posts are emailed: the posts whose email is due, the mark that a post's send is made,
// and each post's send for the editor and the posts list.
import { sql } from "kysely";
import type { Db } from "../../kernel/rows.ts";
import { type SendProgress, toProgress } from "./email-outbox.ts";

/**
 * Posts whose email is wanted and whose time has come: scheduled posts that became public since
 * (a save that publishes at once queues its own). A seek on the partial index posts_newsletter_wanted,
 * which holds only the wanted posts; the literal lets PostgreSQL match the index's predicate.
 */
export async function findPostsDueForEmail(db: Db, at: string): Promise<string[]> {
  const rows = await db
    .selectFrom("posts")
    .select("id")
    .where("newsletter", "=", sql.lit("wanted"))
    .where("published", "=", 1)
    .where((eb) => eb.or([eb("publish_at", "is", null), eb("publish_at", "<=", at)]))
    .orderBy("publish_at")
    .execute();
  return rows.map((row) => row.id);
}

/** The post's send is made: it is never emailed again, whatever its later saves. */
export async function markPostEmailed(db: Db, postId: string): Promise<void> {
  await db
    .updateTable("posts")
    .set({ newsletter: "sent" })
    .where("id", "=", postId)
    .where("newsletter", "=", "wanted")
    .execute();
}

/** The sends of these posts (at most one each), for the editor and the posts list. */
export async function findPostSends(db: Db, postIds: readonly string[]): Promise<Map<string, SendProgress>> {
  if (postIds.length === 0) return new Map();
  const rows = await db.selectFrom("email_sends").selectAll().where("post_id", "in", postIds).execute();
  return new Map(rows.map((row) => [row.post_id!, toProgress(row)]));
}
