// Scheduled posts become public by the clock, with no write: each capability that must act on
// that moment keeps its own mark on the post, and every server's clock look (PostService
// `scheduledPosts`) finds the arrivals not yet marked and claims each with a conditional update,
// so exactly one server acts however many look at once.
import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";
import type { Db } from "../../kernel/rows.ts";

/** When a capability last acted on a post's becoming public (a timestamp, as `publish_at` is). */
export type ArrivalMark = "webmentions_queued_at" | "webhooks_announced_at";

/**
 * Marks the post at `at`, in the caller's transaction. `onlyIfDue` (a scheduled post whose time
 * came) marks it only when no server did since its time: true for the one that does.
 */
export async function markArrival(
  db: Db,
  mark: ArrivalMark,
  postId: string,
  at: string,
  onlyIfDue = false,
): Promise<boolean> {
  const result = await db
    .updateTable("posts")
    .set({ [mark]: at })
    .where("id", "=", postId)
    .$if(onlyIfDue, (query) => query.where((eb) => eb.or([eb(mark, "is", null), eb(mark, "<", eb.ref("publish_at"))])))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How far back a server's clock looks for scheduled posts whose time came while no server looked. */
const ARRIVALS_LOOK_BACK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Scheduled posts whose time came (in the last week) and that no server has marked since then:
 * a range of the posts_publish_at index.
 */
export async function findUnmarkedArrivals(db: Kysely<Database>, mark: ArrivalMark, at: Date): Promise<string[]> {
  const now = at.toISOString();
  const since = new Date(at.getTime() - ARRIVALS_LOOK_BACK_MS).toISOString();
  const rows = await db
    .selectFrom("posts")
    .select("id")
    .where("published", "=", 1)
    .where("publish_at", ">", since)
    .where("publish_at", "<=", now)
    .where((eb) => eb.or([eb(mark, "is", null), eb(mark, "<", eb.ref("publish_at"))]))
    .orderBy("publish_at")
    .execute();
  return rows.map((row) => row.id);
}
