// Followers and reactions from the fediverse (migration 0017). Replies are comments: the comments repository keeps them.
import type { Kysely } from "kysely";
import type { Follower, FollowerState, ReactionKind } from "#domain/fediverse.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { selectPostsAtAddress, selectPublicPosts } from "../../posts/index.ts";
import { newId, toIsoString } from "../../kernel/rows.ts";

/** A follower with what sending to it needs. */
export interface FollowerDetail extends Follower {
  inboxUrl: string;
  sharedInboxUrl: string | null;
  followActivityId: string | null;
}

const FOLLOWER_COLUMNS = [
  "id",
  "actor_url",
  "handle",
  "server",
  "state",
  "created_at",
  "inbox_url",
  "shared_inbox_url",
  "follow_activity_id",
] as const;

interface FollowerRow {
  id: string;
  actor_url: string;
  handle: string;
  server: string;
  state: FollowerState;
  created_at: string;
  inbox_url: string;
  shared_inbox_url: string | null;
  follow_activity_id: string | null;
}

function toFollowerDetail(row: FollowerRow): FollowerDetail {
  return {
    id: row.id,
    actorUrl: row.actor_url,
    handle: row.handle,
    server: row.server,
    state: row.state,
    createdAt: toIsoString(row.created_at),
    inboxUrl: row.inbox_url,
    sharedInboxUrl: row.shared_inbox_url,
    followActivityId: row.follow_activity_id,
  };
}

/**
 * Records a Follow. The same account following again (a lost Accept, a new device) updates its
 * row and keeps its state: an accepted follower stays accepted, a pending one keeps waiting.
 */
export async function upsertFollower(
  db: Kysely<Database>,
  fields: {
    actorUrl: string;
    handle: string;
    server: string;
    inboxUrl: string;
    sharedInboxUrl: string | null;
    followActivityId: string | null;
    state: FollowerState;
    createdAt: string;
  },
): Promise<{ id: string; state: FollowerState }> {
  const changes = {
    handle: fields.handle,
    server: fields.server,
    inbox_url: fields.inboxUrl,
    shared_inbox_url: fields.sharedInboxUrl,
    follow_activity_id: fields.followActivityId,
  };
  return db
    .insertInto("fediverse_followers")
    .values({ id: newId(), actor_url: fields.actorUrl, state: fields.state, created_at: fields.createdAt, ...changes })
    .onConflict((conflict) => conflict.column("actor_url").doUpdateSet(changes))
    .returning(["id", "state"])
    .executeTakeFirstOrThrow();
}

/** A follower's new handle or inboxes, from their profile's Update; false when they do not follow. */
export async function updateFollowerProfile(
  db: Kysely<Database>,
  actorUrl: string,
  profile: { handle: string; inboxUrl: string; sharedInboxUrl: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable("fediverse_followers")
    .set({ handle: profile.handle, inbox_url: profile.inboxUrl, shared_inbox_url: profile.sharedInboxUrl })
    .where("actor_url", "=", actorUrl)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteFollowerByActor(db: Kysely<Database>, actorUrl: string): Promise<boolean> {
  const result = await db.deleteFrom("fediverse_followers").where("actor_url", "=", actorUrl).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findFollower(db: Kysely<Database>, id: string): Promise<FollowerDetail | undefined> {
  const row = await db
    .selectFrom("fediverse_followers")
    .select(FOLLOWER_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toFollowerDetail(row);
}

export async function findFollowerByActor(db: Kysely<Database>, actorUrl: string): Promise<FollowerDetail | undefined> {
  const row = await db
    .selectFrom("fediverse_followers")
    .select(FOLLOWER_COLUMNS)
    .where("actor_url", "=", actorUrl)
    .executeTakeFirst();
  return row && toFollowerDetail(row);
}

/** Deletes one follower and hands back what it was, in one statement. */
export async function deleteFollower(db: Kysely<Database>, id: string): Promise<FollowerDetail | undefined> {
  const row = await db
    .deleteFrom("fediverse_followers")
    .where("id", "=", id)
    .returning(FOLLOWER_COLUMNS)
    .executeTakeFirst();
  return row && toFollowerDetail(row);
}

export async function deleteFollowers(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("fediverse_followers").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks a follower accepted and hands back the row; undefined when there is no such follower. */
export async function acceptFollower(db: Kysely<Database>, id: string): Promise<FollowerDetail | undefined> {
  const row = await db
    .updateTable("fediverse_followers")
    .set({ state: "accepted" })
    .where("id", "=", id)
    .returning(FOLLOWER_COLUMNS)
    .executeTakeFirst();
  return row && toFollowerDetail(row);
}

/** One page of followers in one state, newest first, through (state, created_at, id). */
export async function listFollowers(
  db: Kysely<Database>,
  state: FollowerState,
  window: { limit: number; offset: number },
): Promise<FollowerDetail[]> {
  const rows = await db
    .selectFrom("fediverse_followers")
    .select(FOLLOWER_COLUMNS)
    .where("state", "=", state)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toFollowerDetail);
}

export async function countFollowers(db: Kysely<Database>): Promise<Record<FollowerState, number>> {
  const rows = await db
    .selectFrom("fediverse_followers")
    .select(["state", (eb) => eb.fn.countAll<number | string>().as("count")])
    .groupBy("state")
    .execute();
  const counts: Record<FollowerState, number> = { accepted: 0, pending: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/** Accepted followers who followed from `since` (ISO UTC): a range of fediverse_followers_state_created_at. */
export async function countFollowersSince(db: Kysely<Database>, since: string): Promise<number> {
  const row = await db
    .selectFrom("fediverse_followers")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("state", "=", "accepted")
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Accepted followers after `cursor` (an id) in id order, `limit` at a time: the followers
 * collection and delivery page through every follower without an offset growing with the list.
 */
export async function listFollowerInboxes(
  db: Kysely<Database>,
  cursor: string | null,
  limit: number,
): Promise<{ id: string; actorUrl: string; inboxUrl: string; sharedInboxUrl: string | null }[]> {
  let query = db
    .selectFrom("fediverse_followers")
    .select(["id", "actor_url", "inbox_url", "shared_inbox_url"])
    .where("state", "=", "accepted");
  if (cursor !== null) query = query.where("id", ">", cursor);
  const rows = await query.orderBy("id").limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    actorUrl: row.actor_url,
    inboxUrl: row.inbox_url,
    sharedInboxUrl: row.shared_inbox_url,
  }));
}

/** Every follower's id and actor, for checking them against a new blocked list (a save in Settings). */
export async function listFollowerActors(db: Kysely<Database>): Promise<{ id: string; actorUrl: string }[]> {
  const rows = await db.selectFrom("fediverse_followers").select(["id", "actor_url"]).execute();
  return rows.map((row) => ({ id: row.id, actorUrl: row.actor_url }));
}

/** Records a like or boost; false when it was already recorded (the same activity, or the same actor again). */
export async function insertReaction(
  db: Kysely<Database>,
  fields: { postId: string; kind: ReactionKind; actorUrl: string; activityId: string; createdAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto("fediverse_reactions")
    .values({
      id: newId(),
      post_id: fields.postId,
      kind: fields.kind,
      actor_url: fields.actorUrl,
      activity_id: fields.activityId,
      created_at: fields.createdAt,
    })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Removes a reaction named by its activity or by what it was; only the actor who made it can. */
export async function deleteReaction(
  db: Kysely<Database>,
  reaction: { activityId: string; actorUrl: string } | { postId: string; kind: ReactionKind; actorUrl: string },
): Promise<boolean> {
  let query = db.deleteFrom("fediverse_reactions").where("actor_url", "=", reaction.actorUrl);
  query =
    "activityId" in reaction
      ? query.where("activity_id", "=", reaction.activityId)
      : query.where("post_id", "=", reaction.postId).where("kind", "=", reaction.kind);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Likes and boosts of each post, through the (post_id, kind, actor_url) unique index. */
export async function countReactions(
  db: Kysely<Database>,
  postIds: readonly string[],
): Promise<Map<string, Record<ReactionKind, number>>> {
  const counts = new Map<string, Record<ReactionKind, number>>();
  if (postIds.length === 0) return counts;
  const rows = await db
    .selectFrom("fediverse_reactions")
    .select(["post_id", "kind", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("post_id", "in", postIds)
    .groupBy(["post_id", "kind"])
    .execute();
  for (const row of rows) {
    const post = counts.get(row.post_id) ?? { like: 0, announce: 0 };
    post[row.kind] = Number(row.count);
    counts.set(row.post_id, post);
  }
  return counts;
}

/**
 * The public post at an address (its slug, a former slug or its id), in one statement; the
 * publishing rule decides, so a reaction to a draft or a scheduled post finds nothing.
 */
export async function findPublicPostIdAt(
  db: Kysely<Database>,
  address: string,
  now: string,
): Promise<string | undefined> {
  const addressed = selectPostsAtAddress(db, address).as("addressed");
  const row = await db
    .selectFrom(addressed)
    .innerJoin(selectPublicPosts(db, now).select("posts.id").as("public"), "public.id", "addressed.id")
    .select("public.id")
    .orderBy("addressed.rank")
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
