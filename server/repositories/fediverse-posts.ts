// What the fediverse was last sent about each post (migration 0018, docs/decisions/0015-fediverse.md).
import { type Kysely, sql } from "kysely";
import type { Database, FediversePostsTable } from "../db/schema.ts";
import { selectPublicPosts } from "./posts-public.ts";
import { toIsoString } from "./rows.ts";

export type SentState = { state: FediversePostsTable["state"]; sentVersion: string } | undefined;

/** A public post whose Create (never sent, or sent before a Delete) or Update (edited since) is due. */
export interface DueAnnouncement {
  postId: string;
  /** The post's updated_at: what the send records. */
  version: string;
  /** When the post became public. */
  publishedAt: string;
  sent: SentState;
}

/**
 * Public posts the fediverse has not heard of in their present version: the publishing rule
 * (`selectPublicPosts`) beside what was last sent. A post that became public at its scheduled
 * time appears here by itself, with no request to trigger it.
 */
export async function listDueAnnouncements(
  db: Kysely<Database>,
  { at, limit }: { at: string; limit: number },
): Promise<DueAnnouncement[]> {
  const rows = await selectPublicPosts(db, at)
    .leftJoin("fediverse_posts", "fediverse_posts.post_id", "posts.id")
    .select([
      "posts.id",
      "posts.updated_at",
      "posts.publish_at",
      "posts.created_at",
      "fediverse_posts.state",
      "fediverse_posts.sent_version",
    ])
    .where((eb) =>
      eb.or([
        eb("fediverse_posts.post_id", "is", null),
        eb("fediverse_posts.state", "=", "deleted"),
        eb("fediverse_posts.sent_version", "<>", eb.ref("posts.updated_at")),
      ]),
    )
    .orderBy("posts.id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    postId: row.id,
    version: toIsoString(row.updated_at),
    publishedAt: toIsoString(row.publish_at ?? row.created_at),
    sent: row.state && row.sent_version ? { state: row.state, sentVersion: toIsoString(row.sent_version) } : undefined,
  }));
}

/** Posts whose Create went out and that are no longer public (unpublished, deleted, or scheduled again). */
export async function listDueRetractions(
  db: Kysely<Database>,
  { at, limit }: { at: string; limit: number },
): Promise<{ postId: string; sentVersion: string }[]> {
  const rows = await db
    .selectFrom("fediverse_posts")
    .select(["post_id", "sent_version"])
    .where("state", "=", "created")
    .where((eb) =>
      eb.not(
        eb.exists(
          selectPublicPosts(db, at)
            .select("posts.id")
            .where("posts.id", "=", sql.ref<string>("fediverse_posts.post_id")),
        ),
      ),
    )
    .orderBy("post_id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ postId: row.post_id, sentVersion: toIsoString(row.sent_version) }));
}

/**
 * Moves a post's record from what the caller read (`from`, undefined: no record) to `to`, only if
 * nobody moved it first: the claim that lets one server, of several sweeping, send each change once.
 */
export async function claimSend(
  db: Kysely<Database>,
  { postId, from, to }: { postId: string; from: SentState; to: NonNullable<SentState> },
): Promise<boolean> {
  if (from === undefined) {
    const inserted = await db
      .insertInto("fediverse_posts")
      .values({ post_id: postId, state: to.state, sent_version: to.sentVersion })
      .onConflict((conflict) => conflict.column("post_id").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable("fediverse_posts")
    .set({ state: to.state, sent_version: to.sentVersion })
    .where("post_id", "=", postId)
    .where("state", "=", from.state)
    .where("sent_version", "=", from.sentVersion)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Puts a record back as it was when the send it claimed could not be queued. */
export async function undoClaim(
  db: Kysely<Database>,
  { postId, from, to }: { postId: string; from: SentState; to: NonNullable<SentState> },
): Promise<void> {
  if (from === undefined) {
    await db
      .deleteFrom("fediverse_posts")
      .where("post_id", "=", postId)
      .where("state", "=", to.state)
      .where("sent_version", "=", to.sentVersion)
      .execute();
    return;
  }
  await claimSend(db, { postId, from: to, to: from });
}
