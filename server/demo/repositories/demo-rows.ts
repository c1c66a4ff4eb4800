// What the demo wrote, as it reads now: the posts at the demo's addresses with what tells whether
// anyone touched them since, and the comments on them. Read only; deleting goes through the posts service.
import type { Kysely } from "kysely";
import type { Database } from "../../kernel/db/schema.ts";
import { toIsoString } from "../../kernel/rows.ts";

/** A post at one of the demo's slugs, with what shows whether it changed since the demo wrote it. */
export interface PostAtDemoSlug {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  revisions: number;
  comments: number;
}

/** The posts at these slugs (the demo's 20: one indexed lookup each), in three statements. */
export async function findPostsAtSlugs(db: Kysely<Database>, slugs: readonly string[]): Promise<PostAtDemoSlug[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom("posts")
    .select(["id", "slug", "title", "excerpt", "content", "created_at", "updated_at"])
    .where("slug", "in", slugs)
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [revisions, comments] = await Promise.all([
    db
      .selectFrom("post_revisions")
      .select((eb) => ["post_id", eb.fn.countAll<number>().as("count")])
      .where("post_id", "in", ids)
      .groupBy("post_id")
      .execute(),
    db
      .selectFrom("comments")
      .select((eb) => ["post_id", eb.fn.countAll<number>().as("count")])
      .where("post_id", "in", ids)
      .groupBy("post_id")
      .execute(),
  ]);
  const counted = (found: { post_id: string; count: number }[]) =>
    new Map(found.map((row) => [row.post_id, Number(row.count)]));
  const revisionCounts = counted(revisions);
  const commentCounts = counted(comments);
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
    revisions: revisionCounts.get(row.id) ?? 0,
    comments: commentCounts.get(row.id) ?? 0,
  }));
}

/**
 * Who wrote what on these posts. Asked only of posts with no more comments than the demo gave
 * them (findPostsAtSlugs counts them first), so it reads a few dozen rows at most.
 */
export async function listCommentsOnPosts(
  db: Kysely<Database>,
  postIds: readonly string[],
): Promise<{ postId: string; author: string; content: string }[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom("comments")
    .select(["post_id", "author", "content"])
    .where("post_id", "in", postIds)
    .execute();
  return rows.map((row) => ({ postId: row.post_id, author: row.author, content: row.content }));
}
