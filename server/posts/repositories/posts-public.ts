// What the public may read: the publishing rule, its complements, and every public list and count.
import { sql } from "kysely";
import type { CategorySummary, Post, PostSummary } from "#domain/post.ts";
import { type Page, pageWindow } from "#domain/pagination.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";
import {
  loadTags,
  newestFirst,
  type PageRequest,
  pageOf,
  SUMMARY_COLUMNS,
  summarise,
  toPost,
  toSummary,
} from "./posts-rows.ts";

/**
 * The publishing rule: the one filter every public query starts from, so a draft
 * can never reach a visitor by a query that forgot it. A published post with a
 * publishing time is public from that time (`now`, the service's clock, as ISO UTC):
 * it appears by itself, with no job to run and nothing lost across a restart.
 */
export function selectPublicPosts(db: Db, now: string) {
  return db
    .selectFrom("posts")
    .where("posts.published", "=", 1)
    .where((eb) => eb.or([eb("posts.publish_at", "is", null), eb("posts.publish_at", "<=", now)]));
}

/**
 * The search keys of published posts whose publishing time is still ahead: the rule above,
 * turned round for the search index, which holds every published post (migration 0011).
 * Only scheduled posts have a `publish_at`, so this is a seek on posts_publish_at.
 */

export function selectScheduledSearchKeys(db: Db, now: string) {
  return db
    .selectFrom("posts")
    .select("posts.search_key")
    .where("posts.publish_at", ">", now)
    .where("posts.search_key", "is not", null);
}

/**
 * The category of every published post whose publishing time is still ahead: the publishing
 * rule's exception (`selectPublicPosts`), read from the other side, a short range of
 * posts_publish_at. `+published` keeps SQLite off the `published` indexes, which it would
 * otherwise walk in full; PostgreSQL reads the same range.
 */
async function scheduledCategories(db: Db, now: string, category?: string): Promise<string[]> {
  let query = db
    .selectFrom("posts")
    .select("posts.category")
    .where("posts.publish_at", ">", now)
    .where(sql<number>`+${sql.ref("posts.published")}`, "=", 1);
  if (category !== undefined) query = query.where("posts.category", "=", category);
  return (await query.execute()).map((row) => row.category);
}

/** The earliest publishing time still ahead: when the public view next changes by itself (a page cache's expiry). */
export async function nextScheduledPublishAt(db: Db, now: string): Promise<string | null> {
  // Only `publish_at`, so the one index that can answer is posts_publish_at, a single seek: with
  // `published = 1` too, SQLite walks every published post instead. Only published posts keep
  // a publishing time (server/posts/service.ts), and a stray one would only end a cached page early.
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.min("publish_at").as("next"))
    .where("publish_at", ">", now)
    .executeTakeFirst();
  return row?.next ? toIsoString(row.next) : null;
}

/**
 * How many posts are public in each category: the published posts the database counts as they
 * are written (migration 0013), less those not yet public. Constant at any size, where counting
 * the list index walked one entry per post (docs/decisions/0005, "Queries").
 */
async function countPublicPostsByCategory(db: Db, now: string, category?: string): Promise<Map<string, number>> {
  let counted = db.selectFrom("published_post_counts").select(["category", "posts"]);
  if (category !== undefined) counted = counted.where("category", "=", category);
  const [rows, scheduled] = await Promise.all([counted.execute(), scheduledCategories(db, now, category)]);
  const counts = new Map(rows.map((row) => [row.category, Number(row.posts)]));
  for (const scheduledCategory of scheduled) {
    const count = counts.get(scheduledCategory);
    if (count !== undefined) counts.set(scheduledCategory, count - 1);
  }
  return counts;
}

/** How many posts are public, all or of one category. */
export async function countPublishedPosts(db: Db, now: string, category?: string): Promise<number> {
  const counts = await countPublicPostsByCategory(db, now, category);
  return [...counts.values()].reduce((sum, count) => sum + count, 0);
}

/**
 * The public posts with these ids, as summaries in the order given. Read through the
 * publishing rule, so an id from any index can never show a post that is not public.
 */

export async function publicSummariesInOrder(db: Db, now: string, ids: readonly string[]): Promise<PostSummary[]> {
  if (ids.length === 0) return [];
  // Both by id, so PostgreSQL answers them at once on two connections; tags of a post the
  // publishing rule leaves out are dropped with it.
  const [rows, tagsByPost] = await Promise.all([
    selectPublicPosts(db, now).select(SUMMARY_COLUMNS).where("posts.id", "in", ids).execute(),
    loadTags(db, [...ids]),
  ]);
  const rowsById = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = rowsById.get(id);
    return row ? [toSummary(row, tagsByPost.get(id) ?? [])] : [];
  });
}

/**
 * A page of the public list, all posts or one category's: the page's ids come from the list
 * index alone, so a deep page skips index entries rather than post rows (PostgreSQL read
 * 48,000 rows for page 2,000), then only the page's rows are read.
 */
async function listPublicPage(
  db: Db,
  now: string,
  request: PageRequest,
  category?: string,
): Promise<Page<PostSummary>> {
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  let ids = newestFirst(selectPublicPosts(db, now).select("posts.id"));
  if (category !== undefined) ids = ids.where("posts.category", "=", category);
  const [idRows, total] = await Promise.all([
    ids.limit(limit).offset(offset).execute(),
    countPublishedPosts(db, now, category),
  ]);
  const items = await publicSummariesInOrder(
    db,
    now,
    idRows.map((row) => row.id),
  );
  return pageOf(items, total, request);
}

export async function listPublishedPosts(db: Db, now: string, request: PageRequest): Promise<Page<PostSummary>> {
  return listPublicPage(db, now, request);
}

export async function listPublishedPostsByCategory(
  db: Db,
  now: string,
  category: string,
  request: PageRequest,
): Promise<Page<PostSummary>> {
  return listPublicPage(db, now, request, category);
}

/** The public posts with a tag, newest first: their ids and the tag as each spells it. */
export function selectTaggedPostIds(db: Db, now: string, tagKey: string) {
  return selectPublicPosts(db, now)
    .innerJoin("post_tags", "post_tags.post_id", "posts.id")
    .select(["posts.id", "post_tags.tag"])
    .where("post_tags.tag_key", "=", tagKey)
    .orderBy("post_tags.created_at", "desc")
    .orderBy("post_tags.post_id", "desc");
}

/** The newest few published posts, without counting them all (the home page). */
export async function listNewestPublishedPosts(db: Db, now: string, limit: number): Promise<PostSummary[]> {
  return summarise(db, await newestFirst(selectPublicPosts(db, now).select(SUMMARY_COLUMNS)).limit(limit).execute());
}

/** The newest few of one category, through `posts_category_public_created_at`. */
export async function listNewestPublishedPostsInCategory(
  db: Db,
  now: string,
  category: string,
  limit: number,
): Promise<PostSummary[]> {
  const rows = await newestFirst(
    selectPublicPosts(db, now).select(SUMMARY_COLUMNS).where("posts.category", "=", category),
  )
    .limit(limit)
    .execute();
  return summarise(db, rows);
}

/**
 * Up to `limit` posts of the category other than `excludeId`, starting at a random date
 * between the category's oldest and newest post and wrapping round to the oldest: random
 * enough for "related posts", and three index lookups instead of sorting the category.
 */
export async function pickRelatedPublishedPosts(
  db: Db,
  now: string,
  category: string,
  excludeId: string,
  limit: number,
  random: () => number,
): Promise<PostSummary[]> {
  const inCategory = () =>
    selectPublicPosts(db, now).where("posts.category", "=", category).where("posts.id", "!=", excludeId);
  // Two lookups rather than min() and max() together, which SQLite answers with a scan.
  const [first, last] = await Promise.all(
    (["asc", "desc"] as const).map((direction) =>
      selectPublicPosts(db, now)
        .select("posts.created_at")
        .where("posts.category", "=", category)
        .orderBy("posts.created_at", direction)
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  if (!first || !last) return [];
  const oldest = new Date(first.created_at).getTime();
  const from = new Date(oldest + Math.floor(random() * (new Date(last.created_at).getTime() - oldest))).toISOString();
  const forward = await inCategory()
    .select(SUMMARY_COLUMNS)
    .where("posts.created_at", ">=", from)
    .orderBy("posts.created_at")
    .orderBy("posts.id")
    .limit(limit)
    .execute();
  const wrapped =
    forward.length < limit
      ? await inCategory()
          .select(SUMMARY_COLUMNS)
          .where("posts.created_at", "<", from)
          .orderBy("posts.created_at")
          .orderBy("posts.id")
          .limit(limit - forward.length)
          .execute()
      : [];
  return summarise(db, [...forward, ...wrapped]);
}

/**
 * Every category with published posts: how many (counted as they are written, above), and its
 * newest post's excerpt, one index lookup each.
 */
export async function summarisePublishedCategories(
  db: Db,
  now: string,
  categories: readonly string[],
): Promise<CategorySummary[]> {
  const [counts, excerpts] = await Promise.all([
    countPublicPostsByCategory(db, now),
    Promise.all(
      categories.map(async (category) => {
        const newest = await newestFirst(
          selectPublicPosts(db, now).select("posts.excerpt").where("posts.category", "=", category),
        )
          .limit(1)
          .executeTakeFirst();
        return newest?.excerpt ?? "";
      }),
    ),
  ]);
  return categories
    .map((category, index) => ({ category, postCount: counts.get(category) ?? 0, firstExcerpt: excerpts[index]! }))
    .filter((summary) => summary.postCount > 0)
    .sort((a, b) => b.postCount - a.postCount || a.category.localeCompare(b.category));
}

/** The newest published posts with their bodies, all or of one category, tag or byline: what a feed carries. */
export async function listNewestPublishedPostsWithContent(
  db: Db,
  now: string,
  options: { limit: number; category?: string; tagKey?: string; author?: string },
): Promise<Post[]> {
  let query = newestFirst(selectPublicPosts(db, now).selectAll("posts")).limit(options.limit);
  if (options.category !== undefined) query = query.where("category", "=", options.category);
  if (options.author !== undefined) query = query.where("posts.author", "=", options.author);
  if (options.tagKey !== undefined) {
    // The tag's newest ids first (its index), then only their rows, as its page does.
    const ids = await selectTaggedPostIds(db, now, options.tagKey).limit(options.limit).execute();
    if (ids.length === 0) return [];
    query = query.where(
      "posts.id",
      "in",
      ids.map((row) => row.id),
    );
  }
  const rows = await query.execute();
  const tagsByPost = await loadTags(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPost(row, tagsByPost.get(row.id) ?? []));
}

export interface PostAddress {
  id: string;
  slug: string;
  updatedAt: string;
}

/**
 * Published posts' addresses in id order, `limit` at a time after `afterId`: a keyset page
 * that costs the same wherever it starts (index posts_published_id).
 */
export async function listPublishedPostAddresses(
  db: Db,
  now: string,
  options: { afterId?: string; limit: number },
): Promise<PostAddress[]> {
  let query = selectPublicPosts(db, now)
    .select(["posts.id", "posts.slug", "posts.updated_at"])
    .orderBy("id")
    .limit(options.limit);
  if (options.afterId !== undefined) query = query.where("id", ">", options.afterId);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, slug: row.slug, updatedAt: toIsoString(row.updated_at) }));
}

/** The id of the published post at `position` (0-based) in id order: where a sitemap page begins. */
export async function findPublishedPostIdAt(db: Db, now: string, position: number): Promise<string | undefined> {
  const row = await selectPublicPosts(db, now)
    .select("posts.id")
    .orderBy("id")
    .offset(position)
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * When each category last changed: its newest published post's update, one backward step each
 * on posts_category_public_updated_at (migration 0013). Categories with no public post are left out.
 */
export async function listPublishedCategoryUpdates(
  db: Db,
  now: string,
  categories: readonly string[],
): Promise<{ category: string; updatedAt: string }[]> {
  const newest = await Promise.all(
    [...categories].sort().map(async (category) => {
      const row = await selectPublicPosts(db, now)
        .select("posts.updated_at")
        .where("posts.category", "=", category)
        .orderBy("posts.updated_at", "desc")
        .limit(1)
        .executeTakeFirst();
      return row ? [{ category, updatedAt: toIsoString(row.updated_at) }] : [];
    }),
  );
  return newest.flat();
}

/** A post a visitor may read: the publishing filter decides, as for every public query. */
export async function findPublicPostById(db: Db, id: string, now: string): Promise<Post | undefined> {
  const row = await selectPublicPosts(db, now).selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const tags = (await loadTags(db, [id])).get(id) ?? [];
  return toPost(row, tags);
}
