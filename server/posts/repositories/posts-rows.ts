// Post rows as every posts repository reads and writes them: columns, row mapping, tags, pages.
import { type Insertable, type Selectable, type SelectQueryBuilder, sql } from "kysely";
import { POST_COLUMNS, type PostColumn, type PostColumnKind, type PostsTable } from "../../kernel/db/schema.ts";
import type { Post, PostFields, PostSummary } from "#domain/post.ts";
import type { Page } from "#domain/pagination.ts";
import { mediaHashesIn } from "#domain/media.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";

type PostColumnName = keyof typeof POST_COLUMNS;
type MappedField = (typeof POST_COLUMNS)[PostColumnName]["field"];
/** Every `Post` field but its tags (kept in post_tags) has a column; the type checker stops here otherwise. */
true satisfies [Exclude<keyof Post, MappedField | "tags">] extends [never] ? true : never;

const COLUMN_ENTRIES = Object.entries(POST_COLUMNS) as [PostColumnName, PostColumn][];

/** The columns lists read: every column with a `Post` field but the body's. */
type SummaryColumn = {
  [Name in PostColumnName]: (typeof POST_COLUMNS)[Name] extends { body: true } | { field: null } ? never : Name;
}[PostColumnName];

export const SUMMARY_COLUMNS = COLUMN_ENTRIES.filter(([, column]) => column.field !== null && !column.body).map(
  ([name]) => `posts.${name}` as const,
) as `posts.${SummaryColumn}`[];

export type SummaryRow = Pick<Selectable<PostsTable>, SummaryColumn>;

function readColumn(kind: PostColumnKind, value: unknown): unknown {
  switch (kind) {
    case "flag":
      return Number(value) === 1;
    case "format":
      return value === "markdown" ? "markdown" : "html";
    case "time":
      return toIsoString(value as Date | string);
    case "optional time":
      return value === null || value === undefined ? null : toIsoString(value as Date | string);
    default:
      return value;
  }
}

function writeColumn(kind: PostColumnKind, value: unknown): unknown {
  if (kind === "flag") return value ? 1 : 0;
  if (kind === "optional time") return value ?? null;
  return value;
}

/** The `Post` fields a row holds, each as its column's kind reads it (columns the row lacks are left out). */
export function postFieldsFromRow(row: Record<string, unknown>): Partial<Post> {
  const fields: Record<string, unknown> = {};
  for (const [name, column] of COLUMN_ENTRIES) {
    if (column.field !== null && name in row) fields[column.field] = readColumn(column.kind, row[name]);
  }
  return fields as Partial<Post>;
}

/** The columns these fields are kept in (fields not given are left out, so an update keeps them). */
export function toRow(fields: Partial<Post>): Partial<Insertable<PostsTable>> {
  const row: Record<string, unknown> = {};
  for (const [name, column] of COLUMN_ENTRIES) {
    if (column.field !== null && column.field in fields) row[name] = writeColumn(column.kind, fields[column.field]);
  }
  return row as Partial<Insertable<PostsTable>>;
}

/** The most posts whose tags one query reads: an export's page (server/portability/export.ts); lists read fewer. */
const TAGS_READ_AT_ONCE = 500;

/** Tags of one page of posts, in the writer's order: the id list is a page long at most. */
export async function loadTags(db: Db, postIds: readonly string[]): Promise<Map<string, string[]>> {
  const tagsByPost = new Map<string, string[]>();
  if (postIds.length === 0) return tagsByPost;
  if (postIds.length > TAGS_READ_AT_ONCE)
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

export function toSummary(row: SummaryRow, tags: string[]): PostSummary {
  return { ...postFieldsFromRow(row), tags } as PostSummary;
}

/** A single post, body included, from its whole row and its tags. */
export function toPost(row: Omit<Selectable<PostsTable>, "search_key">, tags: string[]): Post {
  return { ...postFieldsFromRow(row), tags } as Post;
}

/** Rows to summaries with their tags, in one extra query for the whole list. */
export async function summarise(db: Db, rows: SummaryRow[]): Promise<PostSummary[]> {
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

export function pageOf(items: PostSummary[], total: number, { page, pageSize }: PageRequest): Page<PostSummary> {
  return { items, total, page, pageSize };
}

/** The public list's order; `posts_public_created_at` walks it backwards without sorting. */
export function newestFirst<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) {
  return query.orderBy(sql.ref("posts.created_at"), "desc").orderBy(sql.ref("posts.id"), "desc");
}

export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Rows a single multi-row INSERT may carry: well under either database's parameter limit. */
export const INSERT_BATCH_ROWS = 200;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );
}

/** The uploaded images a post shows, in its body or as its cover. */
export function mediaUsedBy(fields: Pick<PostFields, "content" | "coverImage">): string[] {
  return mediaHashesIn(`${fields.coverImage}\n${fields.content}`);
}

/**
 * The posts a /blog/{address} URL may name, each with its `rank`: the post with that slug (1),
 * the post that had it before (2), the post with that id (3, the URLs before slugs existed).
 * Drafts included. The address names the one with the lowest rank: the page
 * (findPostIdByAddress) and a comment sent to it (findCommentablePost) read it this one way.
 */
export function selectPostsAtAddress(db: Db, address: string) {
  return db
    .selectFrom("posts")
    .select(["posts.id", sql<number>`1`.as("rank")])
    .where("posts.slug", "=", address)
    .unionAll(
      db
        .selectFrom("post_slug_history")
        .select(["post_slug_history.post_id as id", sql<number>`2`.as("rank")])
        .where("post_slug_history.slug", "=", address),
    )
    .unionAll(
      db
        .selectFrom("posts")
        .select(["posts.id", sql<number>`3`.as("rank")])
        .where("posts.id", "=", address),
    );
}
