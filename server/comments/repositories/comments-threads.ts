// A post's comments as readers see them: one level of threads (migration 0025, docs/decisions/0023).
// The comment service is their only reader.
import type { Kysely } from "kysely";
import type { Comment, CommentStatus } from "#domain/comment.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { PUBLIC_COLUMNS, toComment } from "./comments.ts";

/**
 * One page of a post's approved top-level comments, newest first, through the
 * (post_id, status, created_at, id) index. Their replies come from `listApprovedReplies`.
 */
export async function listThreadStarters(
  db: Kysely<Database>,
  postId: string,
  window: { limit: number; offset: number },
): Promise<Comment[]> {
  const rows = await db
    .selectFrom("comments")
    .select(PUBLIC_COLUMNS)
    .where("post_id", "=", postId)
    .where("status", "=", "approved")
    .where("parent_id", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toComment);
}

/** The approved replies to a page of top-level comments, oldest first, in one statement ((parent_id, created_at) index). */
export async function listApprovedReplies(db: Kysely<Database>, parentIds: readonly string[]): Promise<Comment[]> {
  if (parentIds.length === 0) return [];
  const rows = await db
    .selectFrom("comments")
    .select(PUBLIC_COLUMNS)
    .where("parent_id", "in", parentIds)
    .where("status", "=", "approved")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toComment);
}

/**
 * What readers can see of a post's comments, in one statement: its threads (approved top-level
 * comments, what pages count; the `comments_thread_starters` index) and every comment shown,
 * that is every approved one less the approved replies under a held or spam comment (found
 * from those comments, which are few).
 */
export async function countVisibleComments(
  db: Kysely<Database>,
  postId: string,
): Promise<{ threads: number; comments: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("comments")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("post_id", "=", postId)
        .where("status", "=", "approved")
        .where("parent_id", "is", null)
        .as("threads"),
      eb
        .selectFrom("comments")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("post_id", "=", postId)
        .where("status", "=", "approved")
        .as("approved"),
      eb
        .selectFrom("comments as hidden")
        .innerJoin("comments as reply", "reply.parent_id", "hidden.id")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("hidden.post_id", "=", postId)
        .where("hidden.status", "in", ["pending", "spam"])
        .where("hidden.parent_id", "is", null)
        .where("reply.status", "=", "approved")
        .as("hidden_replies"),
    ])
    .executeTakeFirstOrThrow();
  return {
    threads: Number(row.threads ?? 0),
    comments: Number(row.approved ?? 0) - Number(row.hidden_replies ?? 0),
  };
}

/** The comment a reply names, and the thread it joins: its top-level comment, and how many threads come before it. */
export interface ReplyTarget {
  status: CommentStatus;
  threadId: string;
  threadStatus: CommentStatus;
  /** Approved threads shown before this one (newer, or as new with a smaller id): its page follows. */
  newerThreads: number;
}

/**
 * The comment `commentId` on this post and its thread, in one statement: a reply to a reply
 * joins the thread of the top-level comment (one level of threads). Undefined when the post
 * has no such comment.
 */
export async function findReplyTarget(
  db: Kysely<Database>,
  postId: string,
  commentId: string,
): Promise<ReplyTarget | undefined> {
  const row = await db
    .selectFrom("comments as target")
    .innerJoin("comments as thread", (join) =>
      join.on((eb) => eb("thread.id", "=", eb.fn.coalesce("target.parent_id", "target.id"))),
    )
    .select((eb) => [
      "target.status",
      "thread.id as thread_id",
      "thread.status as thread_status",
      eb
        .selectFrom("comments as newer")
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .where("newer.post_id", "=", postId)
        .where("newer.status", "=", "approved")
        .where("newer.parent_id", "is", null)
        .where((inner) =>
          inner.or([
            inner("newer.created_at", ">", inner.ref("thread.created_at")),
            inner.and([
              inner("newer.created_at", "=", inner.ref("thread.created_at")),
              inner("newer.id", "<", inner.ref("thread.id")),
            ]),
          ]),
        )
        .as("newer_threads"),
    ])
    .where("target.id", "=", commentId)
    .where("target.post_id", "=", postId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    status: row.status,
    threadId: row.thread_id,
    threadStatus: row.thread_status,
    newerThreads: Number(row.newer_threads ?? 0),
  };
}
