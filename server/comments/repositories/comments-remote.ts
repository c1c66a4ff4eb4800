// Replies from the fediverse and by Webmention, kept as comments (migration 0017); the comment service is their only reader and writer.
import type { Kysely } from "kysely";
import type { Comment, CommentStatus, RemoteAuthor } from "#domain/comment.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { newCommentRow } from "./comments.ts";

/**
 * Which comment a reply from elsewhere became: a fediverse note by its id and its author (only
 * its author may edit or delete it), a page's reply by Webmention by that page's address.
 */
export type RemoteCommentKey = { noteUrl: string; actorUrl: string } | { noteUrl: string; via: "webmention" };

/**
 * A reply from elsewhere as a held comment, once per note or replying page: one delivered again
 * finds its comment (undefined here) and leaves it as it is.
 */
export async function insertRemoteComment(
  db: Kysely<Database>,
  fields: {
    postId: string;
    author: string;
    content: string;
    createdAt: string;
    heldReason: string;
    noteUrl: string;
    remoteAuthor: RemoteAuthor;
    via: "fediverse" | "webmention";
    parentId?: string;
  },
): Promise<Comment | undefined> {
  const { row, comment } = newCommentRow({
    ...fields,
    status: "pending",
    ipHash: null,
    remote: { noteUrl: fields.noteUrl, author: fields.remoteAuthor, via: fields.via },
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

/** The comment a reply from elsewhere became; undefined when there is none. */
export async function findRemoteComment(
  db: Kysely<Database>,
  key: RemoteCommentKey,
): Promise<{ id: string; postId: string; author: string; content: string; status: CommentStatus } | undefined> {
  const row = await db
    .selectFrom("comments")
    .select(["id", "post_id", "author", "content", "status"])
    .where("remote_note_url", "=", key.noteUrl)
    .$call((query) =>
      "actorUrl" in key ? query.where("remote_actor_url", "=", key.actorUrl) : query.where("remote_via", "=", key.via),
    )
    .executeTakeFirst();
  return row && { id: row.id, postId: row.post_id, author: row.author, content: row.content, status: row.status };
}

/**
 * An edited note or a changed replying page: its new text and author, held again, as the approval
 * was of the old text. A page's author may change with it; a note's is its key.
 */
export async function updateRemoteComment(
  db: Kysely<Database>,
  id: string,
  fields: { author: string; content: string; heldReason: string; remoteAuthor?: RemoteAuthor },
): Promise<void> {
  await db
    .updateTable("comments")
    .set({
      author: fields.author,
      content: fields.content,
      status: "pending",
      held_reason: fields.heldReason,
      ...(fields.remoteAuthor && {
        remote_actor_url: fields.remoteAuthor.url,
        remote_actor_handle: fields.remoteAuthor.handle,
      }),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * Deletes the comment a reply from elsewhere became: a note only when its author asks, a page's
 * reply when the page is gone or no longer links. Hands back its post and status.
 */
export async function deleteRemoteComment(
  db: Kysely<Database>,
  key: RemoteCommentKey,
): Promise<{ postId: string; status: CommentStatus } | undefined> {
  const row = await db
    .deleteFrom("comments")
    .where("remote_note_url", "=", key.noteUrl)
    .$call((query) =>
      "actorUrl" in key ? query.where("remote_actor_url", "=", key.actorUrl) : query.where("remote_via", "=", key.via),
    )
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
