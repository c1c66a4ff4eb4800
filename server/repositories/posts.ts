import { randomBytes } from "node:crypto";
import { type Kysely, type Selectable, type Transaction, sql } from "kysely";
import type { Dialect } from "../db/connect.ts";
import type { Database, PostsTable } from "../db/schema.ts";
import { htmlToText } from "../html.ts";

export interface Post {
  id: string;
  title: string;
  content: string;
  excerpt: string;
  author: string;
  coverImage: string;
  category: string;
  tags: string[];
  published: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What lists and cards need: everything but the body, which can be large. */
export type PostSummary = Omit<Post, "content">;

/** What a writer sets; the id and timestamps are the database's to give. */
export type PostFields = Omit<Post, "id" | "createdAt" | "updatedAt">;

export interface CategorySummary {
  category: string;
  postCount: number;
  firstExcerpt: string;
}

type Db = Kysely<Database> | Transaction<Database>;

export function toIsoString(value: Date | string): string {
  return new Date(value).toISOString();
}

export function newId(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * The publishing rule: the one filter every public query starts from, so a draft
 * can never reach a visitor by a query that forgot it.
 */
export function selectPublicPosts(db: Db) {
  return db.selectFrom("posts").where("posts.published", "=", 1);
}

const SUMMARY_COLUMNS = [
  "posts.id",
  "posts.title",
  "posts.excerpt",
  "posts.author",
  "posts.cover_image",
  "posts.category",
  "posts.published",
  "posts.created_at",
  "posts.updated_at",
] as const;

type SummaryRow = Omit<Selectable<PostsTable>, "content">;

async function loadTags(db: Db, postIds: string[]): Promise<Map<string, string[]>> {
  const tagsByPost = new Map<string, string[]>();
  if (postIds.length === 0) return tagsByPost;
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
    title: row.title,
    excerpt: row.excerpt,
    author: row.author,
    coverImage: row.cover_image,
    category: row.category,
    tags,
    published: row.published === 1,
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

export async function listPublishedPosts(db: Db, options: { limit?: number } = {}): Promise<PostSummary[]> {
  let query = selectPublicPosts(db).select(SUMMARY_COLUMNS).orderBy("created_at", "desc").orderBy("id");
  if (options.limit !== undefined) query = query.limit(options.limit);
  return summarise(db, await query.execute());
}

export async function listPublishedPostsByCategory(
  db: Db,
  category: string,
  options: { limit?: number; excludeId?: string; random?: boolean } = {},
): Promise<PostSummary[]> {
  let query = selectPublicPosts(db).select(SUMMARY_COLUMNS).where("category", "=", category);
  if (options.excludeId !== undefined) query = query.where("id", "!=", options.excludeId);
  query = options.random ? query.orderBy(sql`random()`) : query.orderBy("created_at", "desc").orderBy("id");
  if (options.limit !== undefined) query = query.limit(options.limit);
  return summarise(db, await query.execute());
}

/** The newest `perCategory` published posts of every category, in one query. */
export async function listNewestPublishedPostsPerCategory(db: Db, perCategory: number): Promise<PostSummary[]> {
  const ranked = selectPublicPosts(db)
    .select(SUMMARY_COLUMNS)
    .select(sql<number>`row_number() over (partition by category order by created_at desc, id)`.as("rank"))
    .as("ranked");
  const rows = await db
    .selectFrom(ranked)
    .selectAll()
    .where("rank", "<=", perCategory)
    .orderBy("category")
    .orderBy("rank")
    .execute();
  return summarise(
    db,
    rows.map(({ rank: _rank, ...post }) => post),
  );
}

export async function summarisePublishedCategories(db: Db): Promise<CategorySummary[]> {
  const ranked = selectPublicPosts(db)
    .select([
      "category",
      "excerpt",
      sql<number>`row_number() over (partition by category order by created_at desc, id)`.as("rank"),
      sql<number>`count(*) over (partition by category)`.as("post_count"),
    ])
    .as("ranked");
  const rows = await db
    .selectFrom(ranked)
    .select(["category", "excerpt", "post_count"])
    .where("rank", "=", 1)
    .orderBy("post_count", "desc")
    .orderBy("category")
    .execute();
  return rows.map((row) => ({
    category: row.category,
    postCount: Number(row.post_count),
    firstExcerpt: row.excerpt,
  }));
}

const TRIGRAM = 3;

function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Case-insensitive substring search over title, content text and tags, answered by a
 * trigram index: FTS5's trigram tokenizer on SQLite, pg_trgm on PostgreSQL. Queries
 * shorter than a trigram cannot use either index and fall back to a scan of the
 * search table, which is still correct.
 */
export async function searchPublishedPosts(
  db: Kysely<Database>,
  dialect: Dialect,
  query: string,
): Promise<PostSummary[]> {
  const needle = query.trim();
  if (needle === "") return listPublishedPosts(db);
  const likePattern = `%${escapeLikePattern(needle)}%`;
  const newestPublished = () =>
    selectPublicPosts(db).select(SUMMARY_COLUMNS).orderBy("created_at", "desc").orderBy("id");

  if (dialect === "postgres") {
    // PostgreSQL's planner does not count the cost of de-TOASTing long post bodies, so it
    // walks every row instead of the trigram index until the table is very large (33 ms
    // against 2 ms for a rare word on 1,000 posts, EXPLAIN ANALYZE). Finding the matches
    // first, in a transaction that leaves only the index path, keeps search on the index.
    const matches = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_indexscan = off`.execute(trx);
      return trx
        .selectFrom("post_search")
        .select("post_id")
        .where(sql<boolean>`search_text ilike ${likePattern} escape '\\'`)
        .execute();
    });
    if (matches.length === 0) return [];
    const ids = matches.map((match) => match.post_id);
    return summarise(
      db,
      await newestPublished()
        .where(sql<boolean>`posts.id = any(${ids})`)
        .execute(),
    );
  }

  const matches =
    [...needle].length >= TRIGRAM
      ? db
          .selectFrom("post_search")
          .select("post_id")
          .where(sql<boolean>`post_search match ${`"${needle.replaceAll('"', '""')}"`}`)
      : db
          .selectFrom("post_search")
          .select("post_id")
          .where(sql<boolean>`search_text like ${likePattern} escape '\\'`);
  return summarise(db, await newestPublished().where("id", "in", matches).execute());
}

export async function findPostById(db: Db, id: string): Promise<Post | undefined> {
  const row = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const tags = (await loadTags(db, [id])).get(id) ?? [];
  return { ...toSummary(row, tags), content: row.content };
}

/** Every post, drafts included, newest first: the admin list. `filter` matches title, author or category. */
export async function listAllPosts(db: Db, filter = ""): Promise<PostSummary[]> {
  let query = db.selectFrom("posts").select(SUMMARY_COLUMNS).orderBy("created_at", "desc").orderBy("id");
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
  return summarise(db, await query.execute());
}

async function writeTagsAndSearch(db: Db, id: string, fields: PostFields): Promise<void> {
  await db.deleteFrom("post_tags").where("post_id", "=", id).execute();
  if (fields.tags.length > 0) {
    await db
      .insertInto("post_tags")
      .values(fields.tags.map((tag, position) => ({ post_id: id, tag, tag_key: tag.toLowerCase(), position })))
      .execute();
  }
  await db.deleteFrom("post_search").where("post_id", "=", id).execute();
  await db
    .insertInto("post_search")
    .values({
      post_id: id,
      search_text: [fields.title, htmlToText(fields.content), fields.tags.join(" ")].join("\n"),
    })
    .execute();
}

function toRow(fields: PostFields) {
  return {
    title: fields.title,
    content: fields.content,
    excerpt: fields.excerpt,
    author: fields.author,
    cover_image: fields.coverImage,
    category: fields.category,
    published: fields.published ? 1 : 0,
  };
}

export async function insertPost(
  db: Kysely<Database>,
  fields: PostFields,
  timestamps: { createdAt: string; updatedAt: string },
): Promise<Post> {
  return db.transaction().execute(async (trx) => {
    const id = newId();
    await trx
      .insertInto("posts")
      .values({ id, ...toRow(fields), created_at: timestamps.createdAt, updated_at: timestamps.updatedAt })
      .execute();
    await writeTagsAndSearch(trx, id, fields);
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
): Promise<Post | undefined> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("posts")
      .set({ ...toRow(fields), updated_at: updatedAt })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    await writeTagsAndSearch(trx, id, fields);
    return findPostById(trx, id);
  });
}

/** Deletes the post, its comments, tags and search row in one transaction. */
export async function deletePost(db: Kysely<Database>, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("comments").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_tags").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_search").where("post_id", "=", id).execute();
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
