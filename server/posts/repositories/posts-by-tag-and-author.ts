// The public posts of one tag or one author (their pages, feeds and sitemaps), read through the
// publishing rule of posts-public.ts and uncounted: one row past the page says whether another follows.
import { type OpenPage, pageWindow } from "#domain/pagination.ts";
import type { PostSummary } from "#domain/post.ts";
import type { Db } from "../../kernel/rows.ts";
import { publicSummariesInOrder, selectPublicPosts, selectTaggedPostIds } from "./posts-public.ts";
import { newestFirst, type PageRequest } from "./posts-rows.ts";

/**
 * A page of the public posts with one tag (its lower-cased `tag_key`), newest first, and the tag
 * as the newest of them spells it (undefined: no public post has it). The ids walk
 * post_tags_tag_key_created_at (migration 0027) through the publishing rule; one row past the
 * page says whether another follows, so nothing counts the tag's posts.
 */
export async function listPublishedPostsByTag(
  db: Db,
  now: string,
  tagKey: string,
  request: PageRequest,
): Promise<OpenPage<PostSummary> & { tag: string | undefined }> {
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  const [rows, newest] = await Promise.all([
    selectTaggedPostIds(db, now, tagKey)
      .limit(limit + 1)
      .offset(offset)
      .execute(),
    offset === 0 ? undefined : selectTaggedPostIds(db, now, tagKey).limit(1).executeTakeFirst(),
  ]);
  const tag = offset === 0 ? rows[0]?.tag : newest?.tag;
  return { tag, ...(await openPageOf(db, now, rows, request)) };
}

/**
 * A page of the public posts bylined `author`, newest first, on posts_author_public_created_at
 * (migration 0027); one row past the page says whether another follows.
 */
export async function listPublishedPostsByAuthor(
  db: Db,
  now: string,
  author: string,
  request: PageRequest,
): Promise<OpenPage<PostSummary>> {
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  const rows = await newestFirst(selectPublicPosts(db, now).select("posts.id").where("posts.author", "=", author))
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return openPageOf(db, now, rows, request);
}

async function openPageOf(
  db: Db,
  now: string,
  rows: { id: string }[],
  { page, pageSize }: PageRequest,
): Promise<OpenPage<PostSummary>> {
  const ids = rows.slice(0, pageSize).map((row) => row.id);
  return { items: await publicSummariesInOrder(db, now, ids), page, pageSize, hasNext: rows.length > pageSize };
}

/** Which of these bylines have a public post: one seek each on posts_author_public_created_at. */
export async function listBylinesWithPublicPosts(db: Db, now: string, authors: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    authors.map(async (author) =>
      (await selectPublicPosts(db, now)
        .select("posts.id")
        .where("posts.author", "=", author)
        .limit(1)
        .executeTakeFirst())
        ? [author]
        : [],
    ),
  );
  return found.flat();
}

/** Every tag of a public post, by key, as first spelled: a sitemap's entries, at most `limit`. */
export async function listPublicTags(db: Db, now: string, limit: number): Promise<string[]> {
  const rows = await selectPublicPosts(db, now)
    .innerJoin("post_tags", "post_tags.post_id", "posts.id")
    .select((eb) => ["post_tags.tag_key", eb.fn.min("post_tags.tag").as("tag")])
    .groupBy("post_tags.tag_key")
    .orderBy("post_tags.tag_key")
    .limit(limit)
    .execute();
  return rows.map((row) => row.tag);
}
