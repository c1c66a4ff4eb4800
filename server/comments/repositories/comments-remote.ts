// Replies from the fediverse, kept as comments (migration 0017); the comment service is their only reader and writer.
import type { Kysely } from "kysely";
import type { Comment, CommentStatus, RemoteAuthor } from "#domain/comment.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { newCommentRow } from "./comments.ts";

/**
 * A reply from the fediverse as a held comment, once per note: a note delivered again finds its
 * comment (undefined here) and leaves it as it is.
 */
export async function insertRemoteReply(
  db: Kysely<Database>,
  fields: {
    postId: string;
    author: string;
    content: string;
    createdAt: string;
    heldReason: string;
    noteUrl: string;
    remoteAuthor: RemoteAuthor;
    parentId?: string;
  },
): Promise<Comment | undefined> {
  const { row, comment } = newCommentRow({
    ...fields,
    status: "pending",
    ipHash: null,
    remote: { noteUrl: fields.noteUrl, author: fields.remoteAuthor, via: "fediverse" },
  });
  const result = await db
    .insertInto("comments")
    .values(row)
    .onConflict((conflict) => conflict.column("remote_note_url").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 0 ? undefined : comment;
}

/**
 * The thread a note replying to another note joins, when that note became a comment here (not
 * spam): its post and its top-level comment (one level of threads).
 */
export async function findNoteThread(
  db: Kysely<Database>,
  noteUrl: string,
): Promise<{ postId: string; threadId: string } | undefined> {
  const row = await db
    .selectFrom("comments")
    .select(["post_id", "id", "parent_id"])
    .where("remote_note_url", "=", noteUrl)
    .where("status", "!=", "spam")
    .executeTakeFirst();
  return row && { postId: row.post_id, threadId: row.parent_id ?? row.id };
}

/** The comment a remote note became, by the note's id and its author; undefined when there is none. */
export async function findRemoteReply(
  db: Kysely<Database>,
  noteUrl: string,
  actorUrl: string,
): Promise<{ id: string; postId: string; content: string; status: CommentStatus } | undefined> {
  const row = await db
    .selectFrom("comments")
    .select(["id", "post_id", "content", "status"])
    .where("remote_note_url", "=", noteUrl)
    .where("remote_actor_url", "=", actorUrl)
    .executeTakeFirst();
  return row && { id: row.id, postId: row.post_id, content: row.content, status: row.status };
}

/** An edited note's new text; the edit waits for the moderator again, as the approval was of the old text. */
export async function updateRemoteReply(
  db: Kysely<Database>,
  id: string,
  fields: { author: string; content: string; heldReason: string },
): Promise<void> {
  await db
    .updateTable("comments")
    .set({ author: fields.author, content: fields.content, status: "pending", held_reason: fields.heldReason })
    .where("id", "=", id)
    .execute();
}

/** Deletes the comment a note became, only when the note's author asks; hands back its post and status. */
export async function deleteRemoteReply(
  db: Kysely<Database>,
  noteUrl: string,
  actorUrl: string,
): Promise<{ postId: string; status: CommentStatus } | undefined> {
  const row = await db
    .deleteFrom("comments")
    .where("remote_note_url", "=", noteUrl)
    .where("remote_actor_url", "=", actorUrl)
    .returning(["post_id", "status"])
    .executeTakeFirst();
  return row && { postId: row.post_id, status: row.status };
}

/** Replies from the fediverse per post, held ones included: what the writer's counts show. */
export async function countRemoteReplies(
  db: Kysely<Database>,
  postIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (postIds.length === 0) return counts;
  const rows = await db
    .selectFrom("comments")
    .select(["post_id", (eb) => eb.fn.countAll<number | string>().as("count")])
    .where("post_id", "in", postIds)
    .where("remote_via", "=", "fediverse")
    .where("status", "!=", "spam")
    .groupBy("post_id")
    .execute();
  for (const row of rows) counts.set(row.post_id, Number(row.count));
  return counts;
}

/** The comment a page's reply by Webmention became, by that page's address; undefined when there is none. */
export async function findMentionReply(
  db: Kysely<Database>,
  source: string,
): Promise<{ id: string; postId: string; author: string; content: string; status: CommentStatus } | undefined> {
  const row = await db
    .selectFrom("comments")
    .select(["id", "post_id", "author", "content", "status"])
    .where("remote_note_url", "=", source)
    .where("remote_via", "=", "webmention")
    .executeTakeFirst();
  return row && { id: row.id, postId: row.post_id, author: row.author, content: row.content, status: row.status };
}

/** A reply by Webmention as a held comment, once per replying page (undefined when it is one already). */
export async function insertMentionReply(
  db: Kysely<Database>,
  fields: {
    postId: string;
    author: string;
    content: string;
    createdAt: string;
    heldReason: string;
    source: string;
    remoteAuthor: RemoteAuthor;
  },
): Promise<Comment | undefined> {
  const { row, comment } = newCommentRow({
    ...fields,
    status: "pending",
    ipHash: null,
    remote: { noteUrl: fields.source, author: fields.remoteAuthor, via: "webmention" },
  });
  const result = await db
    .insertInto("comments")
    .values(row)
    .onConflict((conflict) => conflict.column("remote_note_url").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 0 ? undefined : comment;
}

/** A replying page that changed: its new text and author, held again, as the approval was of the old text. */
export async function updateMentionReply(
  db: Kysely<Database>,
  id: string,
  fields: { author: string; content: string; heldReason: string; remoteAuthor: RemoteAuthor },
): Promise<void> {
  await db
    .updateTable("comments")
    .set({
      author: fields.author,
      content: fields.content,
      status: "pending",
      held_reason: fields.heldReason,
      remote_actor_url: fields.remoteAuthor.url,
      remote_actor_handle: fields.remoteAuthor.handle,
    })
    .where("id", "=", id)
    .execute();
}

/** Deletes the comment a replying page became (it is gone or no longer links); hands back its post and status. */
export async function deleteMentionReply(
  db: Kysely<Database>,
  source: string,
): Promise<{ postId: string; status: CommentStatus } | undefined> {
  const row = await db
    .deleteFrom("comments")
    .where("remote_note_url", "=", source)
    .where("remote_via", "=", "webmention")
    .returning(["post_id", "status"])
    .executeTakeFirst();
  return row && { postId: row.post_id, status: row.status };
}
