// Post rows as every posts repository reads and writes them: columns, row mapping, tags, pages.
import { type Selectable, type SelectQueryBuilder, sql } from "kysely";
import type { PostsTable } from "../db/schema.ts";
import type { PostFields, PostSummary } from "#domain/post.ts";
import type { Page } from "#domain/pagination.ts";
import { mediaHashesIn } from "#domain/media.ts";
import { type Db, toIsoString } from "./rows.ts";

export const SUMMARY_COLUMNS = [
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

export type SummaryRow = Omit<Selectable<PostsTable>, "content" | "content_html" | "search_key">;

/** Tags of one page of posts: the id list is a page long at most. */
export async function loadTags(db: Db, postIds: string[]): Promise<Map<string, string[]>> {
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

export function toSummary(row: SummaryRow, tags: string[]): PostSummary {
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

export function toRow(fields: PostFields) {
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

/** The uploaded images a post shows, in its body or as its cover. */
export function mediaUsedBy(fields: Pick<PostFields, "content" | "coverImage">): string[] {
  return mediaHashesIn(`${fields.coverImage}\n${fields.content}`);
}
