// Verified mentions of the blog's posts (migration 0029): one row per (post, source page).
import type { Kysely } from "kysely";
import type { MentionKind } from "#domain/webmention.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { selectPostsAtAddress, selectPublicPosts } from "../../posts/index.ts";
import { newId } from "../../kernel/rows.ts";

/** The public post at `address` (its slug, a former slug or its id): its id, else undefined. */
export async function findPublicPostIdAt(db: Kysely<Database>, address: string, now: string) {
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

/** Keeps what a source page says of a post: a new row, or the same page's row brought up to date. */
export async function saveMention(
  db: Kysely<Database>,
  mention: {
    postId: string;
    source: string;
    kind: MentionKind;
    authorName: string;
    authorUrl: string;
    commentId: string | null;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto("webmentions")
    .values({
      id: newId(),
      post_id: mention.postId,
      source: mention.source,
      kind: mention.kind,
      author_name: mention.authorName,
      author_url: mention.authorUrl,
      comment_id: mention.commentId,
      created_at: mention.at,
      updated_at: mention.at,
    })
    .onConflict((conflict) =>
      conflict.columns(["post_id", "source"]).doUpdateSet({
        kind: mention.kind,
        author_name: mention.authorName,
        author_url: mention.authorUrl,
        comment_id: mention.commentId,
        updated_at: mention.at,
      }),
    )
    .execute();
}

/** Forgets what a source page said of a post (it is gone or no longer links); true when there was something. */
export async function deleteMention(db: Kysely<Database>, postId: string, source: string): Promise<boolean> {
  const result = await db
    .deleteFrom("webmentions")
    .where("post_id", "=", postId)
    .where("source", "=", source)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Mentions per post and kind, for the writer's counts beside the fediverse's. */
export async function countMentions(db: Kysely<Database>, postIds: readonly string[]) {
  const counts = new Map<string, Partial<Record<MentionKind, number>>>();
  if (postIds.length === 0) return counts;
  const rows = await db
    .selectFrom("webmentions")
    .select(["post_id", "kind", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("post_id", "in", postIds)
    .groupBy(["post_id", "kind"])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.post_id) ?? {};
    entry[row.kind] = Number(row.count);
    counts.set(row.post_id, entry);
  }
  return counts;
}

/** A post's newest mentions (at most `limit`), for its editor. */
export async function listMentions(db: Kysely<Database>, postId: string, limit: number) {
  return db
    .selectFrom("webmentions")
    .select(["source", "kind", "author_name", "author_url", "updated_at"])
    .where("post_id", "=", postId)
    .orderBy("updated_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}
