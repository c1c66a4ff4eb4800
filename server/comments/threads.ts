// A post's comments as threads: one level, a reply under the top-level comment it answers.
import type { Kysely } from "kysely";
import { type CommentStatus, type CommentThreadPage, REPLY_PARENT_GONE_MESSAGE } from "#domain/comment.ts";
import { DomainError } from "#domain/errors.ts";
import { COMMENTS_PER_PAGE, pageWindow } from "#domain/pagination.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as threads from "./repositories/comments-threads.ts";

export const COMMENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function createThreadReads(db: Kysely<Database>) {
  /**
   * One page of a post's threads, all the public ever sees of its comments: approved top-level
   * comments newest first, each with its approved replies oldest first. Three statements
   * whatever the page: the page of threads and the counts, then the replies of those threads.
   */
  async function listPublicComments(postId: string, page = 1): Promise<CommentThreadPage> {
    const [starters, counts] = await Promise.all([
      threads.listThreadStarters(db, postId, pageWindow(page, COMMENTS_PER_PAGE)),
      threads.countVisibleComments(db, postId),
    ]);
    const replies = await threads.listApprovedReplies(
      db,
      starters.map((comment) => comment.id),
    );
    const items = starters.map((comment) => ({
      ...comment,
      replies: replies.filter((reply) => reply.parentId === comment.id),
    }));
    return { items, total: counts.threads, page, pageSize: COMMENTS_PER_PAGE, commentCount: counts.comments };
  }

  /**
   * The thread a reply joins, given the comment it answers on this post (a reply's reply joins
   * the same top-level comment). Readers answer only what they are shown; a writer also answers
   * a held comment, never spam.
   */
  async function findThread(postId: string, replyTo: string, who: "reader" | "writer") {
    const target = COMMENT_ID_PATTERN.test(replyTo) ? await threads.findReplyTarget(db, postId, replyTo) : undefined;
    const answerable = (status: CommentStatus) => status === "approved" || (who === "writer" && status === "pending");
    if (!target || !answerable(target.status) || !answerable(target.threadStatus)) {
      throw new DomainError("REPLY_PARENT_GONE", REPLY_PARENT_GONE_MESSAGE);
    }
    return { ...target, page: Math.floor(target.newerThreads / COMMENTS_PER_PAGE) + 1 };
  }

  return { listPublicComments, findThread };
}
