// Search: the query over published posts, and the upkeep of its index as posts are written.
import { randomInt } from "node:crypto";
import { type Kysely, type RawBuilder, type Transaction, sql } from "kysely";
import type { Dialect } from "../../kernel/db/connect.ts";
import type { Database } from "../../kernel/db/schema.ts";
import type { PostFields, PostSummary } from "#domain/post.ts";
import { type Page, pageWindow } from "#domain/pagination.ts";
import { htmlToText } from "../../kernel/html.ts";
import { firstSearchKey, SEARCH_KEYS_PER_MILLISECOND } from "../../kernel/db/search-keys.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";
import { escapeLikePattern, type PageRequest, pageOf } from "./posts-rows.ts";
import { listPublishedPosts, publicSummariesInOrder, selectScheduledSearchKeys } from "./posts-public.ts";

const TRIGRAM = 3;

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

/** What search matches: the title, the rendered body's text (not its Markdown) and the tags. */
export function searchText(fields: Pick<PostFields, "title" | "contentHtml" | "tags">): string {
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
      .values(
        fields.tags.map((tag, position) => ({
          post_id: id,
          tag,
          tag_key: tag.toLowerCase(),
          position,
          // As the post row holds it, so a tag's order is the post list's order.
          created_at: fields.createdAt instanceof Date ? fields.createdAt.toISOString() : fields.createdAt,
        })),
      )
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
export async function deleteSearchRow(db: Db, id: string): Promise<void> {
  await db
    .deleteFrom("post_search")
    .where(
      "rowid",
      "in",
      db.selectFrom("posts").select("search_key").where("id", "=", id).where("search_key", "is not", null),
    )
    .execute();
}

/**
 * Search keys for a batch of new posts (the published ones) in one query: a random key of each
 * post's millisecond, checked against the table at once; the rare one taken gets a free one.
 * Batches of many are benchmark data, written oldest first into an empty blog.
 */
export async function chooseSearchKeys(
  trx: Transaction<Database>,
  batch: readonly { id: string; published: boolean; createdAt: string }[],
): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  // A post saved alone (the editor, an import) may land among older posts that overflowed into
  // its millisecond's keys (an import of thousands of same-time posts): it takes a free key above them.
  if (batch.length === 1) {
    const [post] = batch;
    if (post?.published) keys.set(post.id, await freeSearchKey(trx, post.createdAt));
    return keys;
  }
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
