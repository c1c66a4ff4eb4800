// What the fediverse was last sent about each post (migration 0018, docs/decisions/0015-fediverse.md).
import { type Kysely, sql } from "kysely";
import type { Database, FediversePostsTable } from "../../kernel/db/schema.ts";
import { selectPublicPosts } from "../../posts/index.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";

/**
 * A post's record: what was last sent, at which version, and the version whose Create went out
 * last (`createdVersion`, which names that Create; null when none is named so).
 */
export type SentState =
  { state: FediversePostsTable["state"]; sentVersion: string; createdVersion: string | null } | undefined;

/** A public post whose Create (never sent, or sent before a Delete) or Update (edited since) is due. */
export interface DueAnnouncement {
  postId: string;
  /** The post's updated_at: what the send records. */
  version: string;
  /** When it became public, as far as the post says: its publishing time, or its last save. */
  publicSince: string;
  sent: SentState;
}

/**
 * The posts saved, or whose publishing time came, since `since`: two seeks (posts_updated_at,
 * posts_publish_at), read once a sweep so the queries below start from them and never walk
 * every post. A sweep costs the same whatever the number of posts.
 */
export async function listSweepWindow(
  db: Kysely<Database>,
  { at, since }: { at: string; since: string },
): Promise<string[]> {
  const rows = await db
    .selectFrom("posts")
    .select("id")
    .where("updated_at", ">=", since)
    .unionAll(db.selectFrom("posts").select("id").where("publish_at", ">=", since).where("publish_at", "<=", at))
    .execute();
  // UNION ALL: a union would make SQLite walk every post to merge the two in id order.
  return [...new Set(rows.map((row) => row.id))];
}

/**
 * Public posts of the sweep's window (`listSweepWindow`) that the fediverse has not heard of in
 * their present version: the publishing rule (`selectPublicPosts`) beside what was last sent.
 * A post whose scheduled time has come appears by itself, with no request to trigger it.
 */
export async function listDueAnnouncements(
  db: Kysely<Database>,
  { at, window, limit }: { at: string; window: readonly string[]; limit: number },
): Promise<DueAnnouncement[]> {
  if (window.length === 0) return [];
  const rows = await selectPublicPosts(db, at)
    .where("posts.id", "in", [...window])
    .leftJoin("fediverse_posts", "fediverse_posts.post_id", "posts.id")
    .select([
      "posts.id",
      "posts.updated_at",
      "posts.publish_at",
      "fediverse_posts.state",
      "fediverse_posts.sent_version",
      "fediverse_posts.created_version",
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
    publicSince: toIsoString(row.publish_at ?? row.updated_at),
    sent:
      row.state && row.sent_version
        ? {
            state: row.state,
            sentVersion: toIsoString(row.sent_version),
            createdVersion: isoOrNull(row.created_version),
          }
        : undefined,
  }));
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : toIsoString(value);
}

/**
 * Posts whose Create went out and that are not public now (the publishing rule, turned round):
 * deleted (the trigger marked their record), or unpublished or scheduled again by a save in the
 * sweep's window. A deleted post that an import restored, public, under its id is not retracted.
 */
export async function listDueRetractions(
  db: Kysely<Database>,
  { at, window, limit }: { at: string; window: readonly string[]; limit: number },
): Promise<{ postId: string; sentVersion: string; createdVersion: string | null }[]> {
  const announcedAndNotPublic = () =>
    db
      .selectFrom("fediverse_posts")
      .select(["fediverse_posts.post_id", "fediverse_posts.sent_version", "fediverse_posts.created_version"])
      .where("fediverse_posts.state", "=", "created")
      .where((eb) =>
        eb.not(
          eb.exists(
            selectPublicPosts(db, at).select("posts.id").where("posts.id", "=", eb.ref("fediverse_posts.post_id")),
          ),
        ),
      )
      .orderBy("fediverse_posts.post_id")
      .limit(limit);
  const deleted = await announcedAndNotPublic().where("fediverse_posts.post_deleted", "=", 1).execute();
  const hidden =
    window.length === 0
      ? []
      : await announcedAndNotPublic()
          .where("fediverse_posts.post_id", "in", [...window])
          .execute();
  // A post restored as a draft is both: one Delete.
  const due = new Map(
    [...deleted, ...hidden].map((row) => [
      row.post_id,
      {
        postId: row.post_id,
        sentVersion: toIsoString(row.sent_version),
        createdVersion: isoOrNull(row.created_version),
      },
    ]),
  );
  return [...due.values()];
}

/**
 * Records the given posts that are public at `at` as announced in their present version, sending
 * nothing: what an import does for the posts it inserts (docs/decisions/0015-fediverse.md), as
 * migration 0018 did for the posts already public. Followers get new posts, not old ones again,
 * nor a Create at their first edit. A post restored under its old id is there again, whatever
 * its record said (a Delete due or sent).
 */
export async function recordAnnouncedWithoutSending(
  db: Db,
  { postIds, at }: { postIds: readonly string[]; at: string },
): Promise<void> {
  // In slices, so a large import stays under either database's limit on bound values.
  for (let start = 0; start < postIds.length; start += RECORD_SLICE) {
    await db
      .insertInto("fediverse_posts")
      .columns(["post_id", "state", "sent_version"])
      .expression(
        selectPublicPosts(db, at)
          .where("posts.id", "in", postIds.slice(start, start + RECORD_SLICE))
          .select(["posts.id", sql<"created">`'created'`.as("state"), "posts.updated_at"]),
      )
      .onConflict((conflict) =>
        conflict.column("post_id").doUpdateSet((eb) => ({
          state: eb.ref("excluded.state"),
          sent_version: eb.ref("excluded.sent_version"),
          post_deleted: 0,
        })),
      )
      .execute();
  }
}

const RECORD_SLICE = 500;

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
      .values({ post_id: postId, state: to.state, sent_version: to.sentVersion, created_version: to.createdVersion })
      .onConflict((conflict) => conflict.column("post_id").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const updated = await db
    .updateTable("fediverse_posts")
    // A post restored under its old id is there again: only a Create claims it back.
    .set({
      state: to.state,
      sent_version: to.sentVersion,
      created_version: to.createdVersion,
      ...(to.state === "created" ? { post_deleted: 0 } : {}),
    })
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

/**
 * The version whose Create each post's record names (`created_version`), for the outbox to list
 * the Creates as they were sent; a post without one is left out of the map.
 */
export async function listCreatedVersions(
  db: Kysely<Database>,
  postIds: readonly string[],
): Promise<Map<string, string>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("fediverse_posts")
    .select(["post_id", "created_version"])
    .where("post_id", "in", [...postIds])
    .where("created_version", "is not", null)
    .execute();
  return new Map(
    rows.flatMap((row) => (row.created_version === null ? [] : [[row.post_id, toIsoString(row.created_version)]])),
  );
}
