// Comments as the moments of their life tell them (service.ts `CommentLife`, the comment emails):
// each with its post's title and address.
import type { CommentStatus } from "#domain/comment.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";

/** A comment as the moments of its life tell it (service.ts `CommentLife`): enough to write an email about it. */
export interface CommentMoment {
  id: string;
  postId: string;
  postTitle: string;
  postSlug: string;
  author: string;
  content: string;
  status: CommentStatus;
  /** The comment it answers (migration 0025); null for a top-level comment. */
  parentId: string | null;
  /** The signed-in writer who wrote it (migration 0025); null for a reader's comment. */
  authorUserId: string | null;
  createdAt: string;
}

function selectCommentMoments(db: Db) {
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .select([
      "comments.id",
      "comments.post_id",
      "posts.title",
      "posts.slug",
      "comments.author",
      "comments.content",
      "comments.status",
      "comments.parent_id",
      "comments.author_user_id",
      "comments.created_at",
    ]);
}

function toCommentMoment(row: {
  id: string;
  post_id: string;
  title: string;
  slug: string;
  author: string;
  content: string;
  status: CommentStatus;
  parent_id: string | null;
  author_user_id: string | null;
  created_at: Date | string;
}): CommentMoment {
  return {
    id: row.id,
    postId: row.post_id,
    postTitle: row.title,
    postSlug: row.slug,
    author: row.author,
    content: row.content,
    status: row.status,
    parentId: row.parent_id,
    authorUserId: row.author_user_id,
    createdAt: toIsoString(row.created_at),
  };
}

/** These comments with their post's title and address (at most a moderation page of ids). */
export async function listCommentMoments(db: Db, ids: readonly string[]): Promise<CommentMoment[]> {
  if (ids.length === 0) return [];
  const rows = await selectCommentMoments(db).where("comments.id", "in", ids).orderBy("comments.created_at").execute();
  return rows.map(toCommentMoment);
}

/**
 * Comments taken in [from, to), published or held (spam left out), oldest first: at most `limit`
 * of them through the (created_at, id) index, and how many there were.
 */
export async function listCommentsTakenBetween(
  db: Db,
  { from, to, limit }: { from: string; to: string; limit: number },
): Promise<{ comments: CommentMoment[]; total: number }> {
  const [rows, counted] = await Promise.all([
    selectCommentMoments(db)
      .where("comments.created_at", ">=", from)
      .where("comments.created_at", "<", to)
      .where("comments.status", "!=", "spam")
      .orderBy("comments.created_at")
      .orderBy("comments.id")
      .limit(limit)
      .execute(),
    db
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll<string | number>().as("total"))
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .where("status", "!=", "spam")
      .executeTakeFirstOrThrow(),
  ]);
  return { comments: rows.map(toCommentMoment), total: Number(counted.total) };
}
