import { randomBytes, randomInt } from "node:crypto";
import { type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder, type Transaction, sql } from "kysely";
import type { Dialect } from "../db/connect.ts";
import type { Database, PostsTable } from "../db/schema.ts";
import type { CategorySummary, Post, PostFields, PostSummary } from "#domain/post.ts";
import { type Page, pageWindow } from "#domain/pagination.ts";
import { htmlToText } from "../html.ts";
import { firstSearchKey, SEARCH_KEYS_PER_MILLISECOND } from "../db/search-keys.ts";
import { recordRevision } from "./post-revisions.ts";

/** Who saved, and how, for the revision a save keeps. */
export interface RevisionAuthor {
  kind: "save" | "restore";
  savedBy: string;
}
import { mediaHashesIn } from "#domain/media.ts";
import { replaceMediaUses } from "./media.ts";

type Db = Kysely<Database> | Transaction<Database>;

export function toIsoString(value: Date | string): string {
  return new Date(value).toISOString();
}

export function newId(): string {
  return randomBytes(12).toString("base64url");
}

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
function selectScheduledSearchKeys(db: Db, now: string) {
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
  // a publishing time (services/posts.ts), and a stray one would only end a cached page early.
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.min("publish_at").as("next"))
    .where("publish_at", ">", now)
    .executeTakeFirst();
  return row?.next ? toIsoString(row.next) : null;
}

const SUMMARY_COLUMNS = [
  "posts.id",
  "posts.slug",
  "posts.title",
  "posts.excerpt",
  "posts.author",
  "posts.cover_image",
  "posts.category",
  "posts.published",
  "posts.format",
  "posts.reading_minutes",
  "posts.publish_at",
  "posts.comments_closed",
  "posts.created_at",
  "posts.updated_at",
] as const;

type SummaryRow = Omit<Selectable<PostsTable>, "content" | "content_html" | "search_key">;

/** Tags of one page of posts: the id list is a page long at most. */
async function loadTags(db: Db, postIds: string[]): Promise<Map<string, string[]>> {
  const tagsByPost = new Map<string, string[]>();
  if (postIds.length === 0) return tagsByPost;
  if (postIds.length > INSERT_BATCH_ROWS)
    throw new RangeError(`Tags are loaded a page at a time, not for ${postIds.length} posts`);
  const tagRows = await db
    .selectFrom("post_tags")
    .select(["post_id", "tag"])
    .where("post_id", "in", postIds)
    .orderBy("post_id")
    .orderBy("position")
    .execute();
  for (const { post_id, tag } of tagRows) {
    tagsByPost.set(post_id, [...(tagsByPost.get(post_id) ?? []), tag]);
  }
  return tagsByPost;
}

function toSummary(row: SummaryRow, tags: string[]): PostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    author: row.author,
    coverImage: row.cover_image,
    category: row.category,
    tags,
    published: row.published === 1,
    format: row.format === "markdown" ? "markdown" : "html",
    readingMinutes: row.reading_minutes,
    publishAt: row.publish_at === null ? null : toIsoString(row.publish_at),
    commentsClosed: row.comments_closed === 1,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

/** Rows to summaries with their tags, in one extra query for the whole list. */
async function summarise(db: Db, rows: SummaryRow[]): Promise<PostSummary[]> {
  const tagsByPost = await loadTags(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSummary(row, tagsByPost.get(row.id) ?? []));
}

/** Which page of a list to read. */
export interface PageRequest {
  page: number;
  pageSize: number;
}

function pageOf(items: PostSummary[], total: number, { page, pageSize }: PageRequest): Page<PostSummary> {
  return { items, total, page, pageSize };
}

/** The public list's order; `posts_public_created_at` walks it backwards without sorting. */
function newestFirst<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) {
  return query.orderBy(sql.ref("posts.created_at"), "desc").orderBy(sql.ref("posts.id"), "desc");
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
async function publicSummariesInOrder(db: Db, now: string, ids: readonly string[]): Promise<PostSummary[]> {
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

/** The newest published posts with their bodies, all or of one category: what a feed carries. */
export async function listNewestPublishedPostsWithContent(
  db: Db,
  now: string,
  options: { limit: number; category?: string },
): Promise<Post[]> {
  let query = newestFirst(selectPublicPosts(db, now).selectAll()).limit(options.limit);
  if (options.category !== undefined) query = query.where("category", "=", options.category);
  const rows = await query.execute();
  const tagsByPost = await loadTags(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...toSummary(row, tagsByPost.get(row.id) ?? []),
    content: row.content,
    contentHtml: row.content_html,
  }));
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

const TRIGRAM = 3;

function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Case-insensitive substring search over title, content text and tags (both lower-cased), answered by a
 * trigram index: FTS5's trigram tokenizer on SQLite, pg_trgm on PostgreSQL. Queries
 * shorter than a trigram cannot use either index and fall back to a scan of the
 * search table, which is still correct. Results are newest first (docs/decisions/0005):
 * search rows are keyed in list order, so a page is the matches read backwards by key and
 * the count never joins to posts; only the page's rows are read, through the publishing rule.
 */
export async function searchPublishedPosts(
  db: Kysely<Database>,
  dialect: Dialect,
  query: string,
  now: string,
  request: PageRequest,
): Promise<Page<PostSummary>> {
  const needle = query.trim().toLowerCase();
  if (needle === "") return listPublishedPosts(db, now, request);
  const likePattern = `%${escapeLikePattern(needle)}%`;
  const { limit, offset } = pageWindow(request.page, request.pageSize);

  const matchingRows = (trx: Db, matchCondition: RawBuilder<boolean>) =>
    trx
      .selectFrom("post_search")
      .where(matchCondition)
      .where("post_search.rowid", "not in", selectScheduledSearchKeys(trx, now));
  const countMatches = async (trx: Db, matchCondition: RawBuilder<boolean>) =>
    Number(
      (
        await matchingRows(trx, matchCondition)
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const readPageIds = async (trx: Db, matchCondition: RawBuilder<boolean>) =>
    (
      await matchingRows(trx, matchCondition)
        .select("post_search.post_id")
        .orderBy("post_search.rowid", "desc")
        .limit(limit)
        .offset(offset)
        .execute()
    ).map((row) => row.post_id);

  if (dialect === "postgres") {
    // PostgreSQL's planner does not count the cost of de-TOASTing long post bodies, so it
    // walks every row instead of the trigram index until the table is very large (33 ms
    // against 2 ms for a rare word on 1,000 posts, EXPLAIN ANALYZE). Without sequential
    // scans in this transaction, the matches come from the trigram index.
    const { total, ids } = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const match = sql<boolean>`search_text like ${likePattern} escape '\\'`;
      // The table's size comes with the count, in the same round trip.
      const counted = await matchingRows(trx, match)
        .select((eb) => [
          eb.fn.countAll<number>().as("count"),
          sql<number>`(select greatest(reltuples, 0)::float8 from pg_class where oid = 'post_search'::regclass)`.as(
            "rows",
          ),
        ])
        .executeTakeFirstOrThrow();
      const matches = Number(counted.count);
      const rows = Number(counted.rows);
      // It also guesses far too few matches for a long word, and for a word in half the posts
      // rechecks all of them to sort a page (230 ms at 100,000 posts). Walking the search
      // index newest first reads about (offset + limit) × rows / matches entries: when that is
      // fewer than the matches, the walk is cheaper (0.1–0.3 ms there).
      if (matches > 0 && ((offset + limit) * rows) / matches < matches) {
        await sql`set local enable_bitmapscan = off`.execute(trx);
      }
      return { total: matches, ids: await readPageIds(trx, match) };
    });
    // The page's rows need neither setting, so they are read after the transaction, beside their tags.
    return pageOf(await publicSummariesInOrder(db, now, ids), total, request);
  }
  const match =
    [...needle].length >= TRIGRAM
      ? sql<boolean>`post_search match ${`"${needle.replaceAll('"', '""')}"`}`
      : sql<boolean>`search_text like ${likePattern} escape '\\'`;
  const [total, ids] = await Promise.all([countMatches(db, match), readPageIds(db, match)]);
  return pageOf(await publicSummariesInOrder(db, now, ids), total, request);
}

export async function findPostById(db: Db, id: string): Promise<Post | undefined> {
  const row = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const tags = (await loadTags(db, [id])).get(id) ?? [];
  return { ...toSummary(row, tags), content: row.content, contentHtml: row.content_html };
}

/**
 * The id of the post a /blog/{address} URL names, drafts included: by its slug, then by a
 * slug it had before, then by its id (the URLs before slugs existed). Whether a visitor may
 * read it is for the public queries to decide.
 */
export async function findPostIdByAddress(db: Db, address: string): Promise<string | undefined> {
  const bySlug = await db.selectFrom("posts").select("id").where("slug", "=", address).executeTakeFirst();
  if (bySlug) return bySlug.id;
  const moved = await db
    .selectFrom("post_slug_history")
    .select("post_id")
    .where("slug", "=", address)
    .executeTakeFirst();
  if (moved) return moved.post_id;
  return (await postExists(db, address)) ? address : undefined;
}

/** Whether a post other than `exceptPostId` has this slug now or had it before. */
export async function isSlugTaken(db: Db, slug: string, exceptPostId?: string): Promise<boolean> {
  const owners = await db
    .selectFrom("posts")
    .select("id")
    .where("slug", "=", slug)
    .union(db.selectFrom("post_slug_history").select("post_id as id").where("slug", "=", slug))
    .execute();
  return owners.some((owner) => owner.id !== exceptPostId);
}

/** A post a visitor may read: the publishing filter decides, as for every public query. */
export async function findPublicPostById(db: Db, id: string, now: string): Promise<Post | undefined> {
  const row = await selectPublicPosts(db, now).selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const tags = (await loadTags(db, [id])).get(id) ?? [];
  return { ...toSummary(row, tags), content: row.content, contentHtml: row.content_html };
}

export async function postExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("posts").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** Every post, drafts included, newest first: the admin list. `filter` matches title, author or category. */
export async function listAllPosts(db: Db, filter: string, request: PageRequest): Promise<Page<PostSummary>> {
  let query = db.selectFrom("posts");
  const needle = filter.trim().toLowerCase();
  if (needle) {
    const pattern = `%${escapeLikePattern(needle)}%`;
    query = query.where((eb) =>
      eb.or(
        ["title", "author", "category"].map(
          (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const { limit, offset } = pageWindow(request.page, request.pageSize);
  const [rows, count] = await Promise.all([
    newestFirst(query.select(SUMMARY_COLUMNS)).limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return pageOf(await summarise(db, rows), Number(count.count), request);
}

/** What search matches: the title, the rendered body's text (not its Markdown) and the tags. */
function searchText(fields: Pick<PostFields, "title" | "contentHtml" | "tags">): string {
  // Lower-cased here and in the query, so PostgreSQL checks each match with `like`, five to
  // nine times cheaper than `ilike` folding every body again (migration 0011).
  return [fields.title, htmlToText(fields.contentHtml), fields.tags.join(" ")].join("\n").toLowerCase();
}

/**
 * A free search key for a post created at `createdAt` (migration 0011). Keys sort as the
 * posts' times do: above every older post's key, below every newer post's. A post takes one
 * of its millisecond's own keys, tried from a random one so that two servers saving posts of
 * the same millisecond at once almost never reach for the same key (PostgreSQL's unique index
 * refuses the second, and that save fails whole). When they are all taken (an import of
 * thousands of undated posts), it takes the key after the highest one below the next newer
 * post's. Keys only ever overflow upwards, into later milliseconds' keys, so a millisecond's
 * keys may hold older posts' below a gap; a post takes only keys above those.
 */
async function freeSearchKey(db: Db, createdAt: Date | string, alsoTaken: Set<number> = new Set()): Promise<number> {
  const first = firstSearchKey(createdAt);
  const end = first + SEARCH_KEYS_PER_MILLISECOND;
  const [taken, older] = await Promise.all([
    db.selectFrom("post_search").select("rowid").where("rowid", ">=", first).where("rowid", "<", end).execute(),
    neighbourSearchKey(db, createdAt, "older"),
  ]);
  const used = new Set([...[...alsoTaken], ...taken.map((row) => Number(row.rowid))]);
  const lowest = Math.max(first, (older ?? -1) + 1);
  const room = end - lowest;
  const start = room > 0 ? randomInt(room) : 0;
  for (let step = 0; step < room; step += 1) {
    const key = lowest + ((start + step) % room);
    if (!used.has(key)) return key;
  }
  return overflowSearchKey(db, createdAt, alsoTaken);
}

/**
 * The key of the nearest post older or newer than `createdAt`: the highest key of the
 * latest older time, or the lowest of the earliest newer one (a seek on the list index, then
 * that time's posts).
 */
async function neighbourSearchKey(
  db: Db,
  createdAt: Date | string,
  side: "older" | "newer",
): Promise<number | undefined> {
  const at = toIsoString(createdAt);
  const row = await db
    .selectFrom("posts")
    .select((eb) => (side === "older" ? eb.fn.max("search_key") : eb.fn.min("search_key")).as("key"))
    .where("search_key", "is not", null)
    .where(
      "created_at",
      "=",
      db
        .selectFrom("posts")
        .select((eb) => (side === "older" ? eb.fn.max("created_at") : eb.fn.min("created_at")).as("at"))
        .where("published", "=", 1)
        .where("created_at", side === "older" ? "<" : ">", at),
    )
    .executeTakeFirst();
  return row?.key === null || row?.key === undefined ? undefined : Number(row.key);
}

/**
 * The key after the highest one below the next newer post's: a post whose millisecond's keys
 * are all taken. Those above its millisecond belong to posts of its own time (the overflow
 * is contiguous), so the order holds; the next newer post's key bounds it.
 */
async function overflowSearchKey(db: Db, createdAt: Date | string, alsoTaken: Set<number>): Promise<number> {
  const bound = await neighbourSearchKey(db, createdAt, "newer");
  let below = db.selectFrom("post_search").select("rowid").orderBy("rowid", "desc").limit(1);
  if (bound !== undefined) below = below.where("rowid", "<", bound);
  const highest = await below.executeTakeFirst();
  let key = Math.max(firstSearchKey(createdAt), Number(highest?.rowid ?? 0) + 1);
  while (alsoTaken.has(key)) key += 1;
  if (bound !== undefined && key >= bound) {
    throw new RangeError(`No search key is free between ${String(createdAt)} and the next newer post`);
  }
  return key;
}

/** What a post's tags and search row are written from. */
export type SearchedFields = Pick<PostFields, "title" | "contentHtml" | "tags"> & {
  published: boolean;
  createdAt: Date | string;
};

/**
 * Replaces a post's tags and search row (a published post has one, a draft none); call inside
 * the transaction that writes the post, after the post row.
 */
export async function writeTagsAndSearch(db: Db, id: string, fields: SearchedFields): Promise<void> {
  await db.deleteFrom("post_tags").where("post_id", "=", id).execute();
  if (fields.tags.length > 0) {
    await db
      .insertInto("post_tags")
      .values(fields.tags.map((tag, position) => ({ post_id: id, tag, tag_key: tag.toLowerCase(), position })))
      .execute();
  }
  await deleteSearchRow(db, id);
  const key = fields.published ? await freeSearchKey(db, fields.createdAt) : null;
  if (key !== null) {
    await db
      .insertInto("post_search")
      .values({ rowid: key, post_id: id, search_text: searchText(fields) })
      .execute();
  }
  await db.updateTable("posts").set({ search_key: key }).where("id", "=", id).execute();
}

/** By the key the post keeps, so no save reads the whole search table to find its row. */
async function deleteSearchRow(db: Db, id: string): Promise<void> {
  await db
    .deleteFrom("post_search")
    .where(
      "rowid",
      "in",
      db.selectFrom("posts").select("search_key").where("id", "=", id).where("search_key", "is not", null),
    )
    .execute();
}

async function keepRevision(
  trx: Transaction<Database>,
  postId: string,
  fields: PostFields,
  revision: RevisionAuthor,
  createdAt: string,
): Promise<void> {
  await recordRevision(trx, {
    postId,
    kind: revision.kind,
    savedBy: revision.savedBy,
    title: fields.title,
    content: fields.content,
    format: fields.format,
    createdAt,
  });
}

function toRow(fields: PostFields) {
  return {
    slug: fields.slug,
    title: fields.title,
    content: fields.content,
    excerpt: fields.excerpt,
    author: fields.author,
    cover_image: fields.coverImage,
    category: fields.category,
    published: fields.published ? 1 : 0,
    format: fields.format,
    content_html: fields.contentHtml,
    reading_minutes: fields.readingMinutes,
    publish_at: fields.publishAt,
    comments_closed: fields.commentsClosed ? 1 : 0,
  };
}

export async function insertPost(
  db: Kysely<Database>,
  fields: PostFields,
  timestamps: { createdAt: string; updatedAt: string },
  revision?: RevisionAuthor,
): Promise<Post> {
  return db.transaction().execute(async (trx) => {
    const id = newId();
    await trx
      .insertInto("posts")
      .values({ id, ...toRow(fields), created_at: timestamps.createdAt, updated_at: timestamps.updatedAt })
      .execute();
    await writeTagsAndSearch(trx, id, { ...fields, createdAt: timestamps.createdAt });
    if (revision) await keepRevision(trx, id, fields, revision, timestamps.updatedAt);
    await replaceMediaUses(trx, id, mediaUsedBy(fields), timestamps.updatedAt);
    const post = await findPostById(trx, id);
    if (!post) throw new Error(`Post ${id} vanished after insert`);
    return post;
  });
}

export async function updatePost(
  db: Kysely<Database>,
  id: string,
  fields: PostFields,
  updatedAt: string,
  revision?: RevisionAuthor,
): Promise<Post | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("posts").select(["slug", "created_at"]).where("id", "=", id).executeTakeFirst();
    if (!before) return undefined;
    if (before.slug !== fields.slug) {
      // The old slug keeps answering (301 to the new one); taking a slug back ends its redirect.
      await trx.deleteFrom("post_slug_history").where("slug", "=", fields.slug).execute();
      await trx
        .insertInto("post_slug_history")
        .values({ slug: before.slug, post_id: id, created_at: updatedAt })
        .execute();
    }
    const result = await trx
      .updateTable("posts")
      .set({ ...toRow(fields), updated_at: updatedAt })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    await writeTagsAndSearch(trx, id, { ...fields, createdAt: before.created_at });
    await replaceMediaUses(trx, id, mediaUsedBy(fields), updatedAt);
    if (revision) await keepRevision(trx, id, fields, revision, updatedAt);
    // Publishing ends every private preview: the post is there for everyone (or will be, at its time).
    if (fields.published) await trx.deleteFrom("post_preview_tokens").where("post_id", "=", id).execute();
    return findPostById(trx, id);
  });
}

/** Rows a single multi-row INSERT may carry: well under either database's parameter limit. */
export const INSERT_BATCH_ROWS = 200;

function chunk<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );
}

/**
 * Many posts in one transaction, with multi-row inserts of at most INSERT_BATCH_ROWS rows:
 * how the benchmark data is loaded fast enough to build 100,000 posts in seconds.
 */
export async function insertPosts(
  db: Kysely<Database>,
  posts: readonly (PostFields & { createdAt: string; updatedAt: string })[],
): Promise<string[]> {
  const rows = posts.map((post) => ({ ...post, id: newId() }));
  await db.transaction().execute(async (trx) => {
    for (const batch of chunk(rows, INSERT_BATCH_ROWS)) {
      const keys = await chooseSearchKeys(trx, batch);
      await trx
        .insertInto("posts")
        .values(
          batch.map((post) => ({
            id: post.id,
            ...toRow(post),
            search_key: keys.get(post.id) ?? null,
            created_at: post.createdAt,
            updated_at: post.updatedAt,
          })),
        )
        .execute();
      const tags = batch.flatMap((post) =>
        post.tags.map((tag, position) => ({ post_id: post.id, tag, tag_key: tag.toLowerCase(), position })),
      );
      for (const tagBatch of chunk(tags, INSERT_BATCH_ROWS))
        await trx.insertInto("post_tags").values(tagBatch).execute();
      const searched = batch.filter((post) => keys.has(post.id));
      if (searched.length > 0) {
        await trx
          .insertInto("post_search")
          .values(
            searched.map((post) => ({ rowid: keys.get(post.id)!, post_id: post.id, search_text: searchText(post) })),
          )
          .execute();
      }
    }
  });
  return rows.map((row) => row.id);
}

/**
 * Search keys for a batch of new posts (the published ones) in one query: a random key of each
 * post's millisecond, checked against the table at once; the rare one taken gets a free one.
 */
async function chooseSearchKeys(
  trx: Transaction<Database>,
  batch: readonly { id: string; published: boolean; createdAt: string }[],
): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  const chosen = new Set<number>();
  for (const post of batch.filter((candidate) => candidate.published)) {
    const first = firstSearchKey(post.createdAt);
    let key = first + randomInt(SEARCH_KEYS_PER_MILLISECOND);
    while (chosen.has(key)) key = first + ((key - first + 1) % SEARCH_KEYS_PER_MILLISECOND);
    chosen.add(key);
    keys.set(post.id, key);
  }
  if (chosen.size === 0) return keys;
  const taken = await trx
    .selectFrom("post_search")
    .select("rowid")
    .where("rowid", "in", [...chosen])
    .execute();
  const takenKeys = new Set(taken.map((row) => Number(row.rowid)));
  for (const post of batch) {
    const key = keys.get(post.id);
    if (key === undefined || !takenKeys.has(key)) continue;
    const free = await freeSearchKey(trx, post.createdAt, chosen);
    chosen.add(free);
    keys.set(post.id, free);
  }
  return keys;
}

/** The uploaded images a post shows, in its body or as its cover. */
function mediaUsedBy(fields: Pick<PostFields, "content" | "coverImage">): string[] {
  return mediaHashesIn(`${fields.coverImage}\n${fields.content}`);
}

/** Deletes the post, its comments, tags, search row, revisions, preview links and image uses in one transaction. */
export async function deletePost(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await replaceMediaUses(trx, id, [], at);
    await trx.deleteFrom("comments").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_revisions").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_preview_tokens").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_tags").where("post_id", "=", id).execute();
    await deleteSearchRow(trx, id);
    await trx.deleteFrom("post_slug_history").where("post_id", "=", id).execute();
    const result = await trx.deleteFrom("posts").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function countPosts(db: Db): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
