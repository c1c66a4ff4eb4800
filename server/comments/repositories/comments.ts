import { type Insertable, type Kysely, sql } from "kysely";
import type { Comment, CommentStatus, ModeratedComment, RemoteAuthor, RemoteVia } from "#domain/comment.ts";
import type { CommentsTable, Database } from "../../kernel/db/schema.ts";
import { escapeLikePattern, selectPostsAtAddress, selectPublicPosts } from "../../posts/index.ts";
import { type Db, inTransaction, newId, toIsoString } from "../../kernel/rows.ts";

/** What taking a comment needs to know of its post: never its body. */
export interface CommentablePost {
  id: string;
  /** The post's current address, where the comment shows. */
  slug: string;
  /** "Close comments after N days" counts from here (comment-policy.ts). */
  createdAt: string;
  commentsClosed: boolean;
}

interface CommentRow {
  id: string;
  post_id: string;
  author: string;
  content: string;
  created_at: Date | string;
  remote_actor_url: string | null;
  remote_actor_handle: string | null;
  parent_id: string | null;
  author_user_id: string | null;
}

export function toComment(row: CommentRow): Comment {
  const comment: Comment = {
    id: row.id,
    postId: row.post_id,
    author: row.author,
    content: row.content,
    createdAt: toIsoString(row.created_at),
  };
  if (row.remote_actor_url !== null && row.remote_actor_handle !== null) {
    comment.remoteAuthor = { handle: row.remote_actor_handle, url: row.remote_actor_url };
  }
  if (row.parent_id !== null) comment.parentId = row.parent_id;
  if (row.author_user_id !== null) comment.byAuthor = true;
  return comment;
}

export const PUBLIC_COLUMNS = [
  "id",
  "post_id",
  "author",
  "content",
  "created_at",
  "remote_actor_url",
  "remote_actor_handle",
  "parent_id",
  "author_user_id",
] as const;

/** Of the given ids (a short, capped list from the visitor's cookie), those still pending on this post. */
export async function listPendingCommentsByIds(
  db: Kysely<Database>,
  postId: string,
  ids: readonly string[],
): Promise<Comment[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("comments")
    .select(PUBLIC_COLUMNS)
    .where("post_id", "=", postId)
    .where("status", "=", "pending")
    .where("id", "in", ids)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toComment);
}

/** A comment to store: one from the comment form, or (with `remote`) a reply from the fediverse. */
export interface NewComment {
  postId: string;
  author: string;
  content: string;
  createdAt: string;
  status: CommentStatus;
  ipHash: string | null;
  heldReason: string | null;
  /** The top-level comment a reply answers. */
  parentId?: string;
  /** The signed-in writer who wrote it. */
  authorUserId?: string;
  remote?: { noteUrl: string; author: RemoteAuthor; via: RemoteVia };
}

/** The one way a new comment becomes a row: the row, with a fresh id, and the comment it reads back as. */
export function newCommentRow(fields: NewComment): { row: Insertable<CommentsTable>; comment: Comment } {
  const { postId, author, content, createdAt, remote } = fields;
  const id = newId();
  const row: Insertable<CommentsTable> = {
    id,
    post_id: postId,
    author,
    content,
    created_at: createdAt,
    status: fields.status,
    ip_hash: fields.ipHash,
    held_reason: fields.heldReason,
    parent_id: fields.parentId ?? null,
    author_user_id: fields.authorUserId ?? null,
  };
  const comment: Comment = { id, postId, author, content, createdAt };
  if (fields.parentId !== undefined) comment.parentId = fields.parentId;
  if (fields.authorUserId !== undefined) comment.byAuthor = true;
  if (!remote) return { row, comment };
  return {
    row: {
      ...row,
      remote_note_url: remote.noteUrl,
      remote_actor_url: remote.author.url,
      remote_actor_handle: remote.author.handle,
      remote_via: remote.via,
    },
    comment: { ...comment, remoteAuthor: remote.author },
  };
}

export async function insertComment(db: Kysely<Database>, fields: Omit<NewComment, "remote">): Promise<Comment> {
  const { row, comment } = newCommentRow(fields);
  await db.insertInto("comments").values(row).execute();
  return comment;
}

/**
 * The post a comment sent to /blog/{address} is for, in one statement. The address names a
 * post as the page reads it (selectPostsAtAddress); the publishing rule decides whether
 * visitors may comment on it. `post` is undefined when a post has the address but is not public.
 */
export async function findCommentablePost(
  db: Kysely<Database>,
  address: string,
  now: string,
): Promise<{ post: CommentablePost | undefined } | undefined> {
  const addressed = selectPostsAtAddress(db, address).as("addressed");
  const commentable = selectPublicPosts(db, now)
    .select(["posts.id", "posts.slug", "posts.created_at", "posts.comments_closed"])
    .as("commentable");
  const row = await db
    .selectFrom(addressed)
    .leftJoin(commentable, "commentable.id", "addressed.id")
    .select(["commentable.id", "commentable.slug", "commentable.created_at", "commentable.comments_closed"])
    .orderBy("addressed.rank")
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.id === null || row.slug === null || row.created_at === null || row.comments_closed === null) {
    return { post: undefined };
  }
  return {
    post: {
      id: row.id,
      slug: row.slug,
      createdAt: toIsoString(row.created_at),
      commentsClosed: row.comments_closed === 1,
    },
  };
}

/** What the comment policy asks of the sender's address (comment-policy.ts CommentFacts), in one statement. */
export async function describeAddress(
  db: Kysely<Database>,
  fields: { ipHash: string; postId: string; content: string; since: string },
): Promise<{ lastCommentAt: string | undefined; postedSameTextRecently: boolean; onSpamList: boolean }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("comments")
        .select("created_at")
        .where("ip_hash", "=", fields.ipHash)
        .orderBy("created_at", "desc")
        .limit(1)
        .as("last_comment_at"),
      eb
        .exists(
          eb
            .selectFrom("comments")
            .select("id")
            .where("ip_hash", "=", fields.ipHash)
            .where("created_at", ">", fields.since)
            .where("post_id", "=", fields.postId)
            .where("content", "=", fields.content),
        )
        .as("posted_same_text"),
      eb
        .exists(eb.selectFrom("comment_spam_addresses").select("ip_hash").where("ip_hash", "=", fields.ipHash))
        .as("on_spam_list"),
    ])
    .executeTakeFirstOrThrow();
  return {
    lastCommentAt: row.last_comment_at === null ? undefined : toIsoString(row.last_comment_at),
    // SQLite answers 0 or 1, PostgreSQL false or true.
    postedSameTextRecently: Boolean(row.posted_same_text),
    onSpamList: Boolean(row.on_spam_list),
  };
}

export interface ModerationFilter {
  status: CommentStatus;
  postId?: string;
  /** Matches the author, the text or a fediverse reply's handle, ignoring case. */
  search?: string;
}

function selectModerated(db: Kysely<Database>, filter: Omit<ModerationFilter, "status">) {
  let query = db.selectFrom("comments");
  if (filter.postId !== undefined) query = query.where("comments.post_id", "=", filter.postId);
  const needle = filter.search?.trim().toLowerCase();
  if (needle) {
    const pattern = `%${escapeLikePattern(needle)}%`;
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(comments.author) like ${pattern} escape '\\'`,
        sql<boolean>`lower(comments.content) like ${pattern} escape '\\'`,
        sql<boolean>`lower(comments.remote_actor_handle) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return query;
}

/**
 * One page of a moderation tab, newest first; reads (status, created_at) or (post_id, status,
 * created_at), and each reply's parent by its key.
 */
export async function listModeratedComments(
  db: Kysely<Database>,
  filter: ModerationFilter,
  page: { limit: number; offset: number },
): Promise<ModeratedComment[]> {
  const rows = await selectModerated(db, filter)
    .innerJoin("posts", "posts.id", "comments.post_id")
    .leftJoin("comments as parent", "parent.id", "comments.parent_id")
    .select([
      "comments.id",
      "comments.post_id",
      "comments.author",
      "comments.content",
      "comments.created_at",
      "comments.status",
      "comments.ip_hash",
      "comments.held_reason",
      "comments.remote_actor_url",
      "comments.remote_actor_handle",
      "comments.parent_id",
      "comments.author_user_id",
      "parent.author as parent_author",
      "parent.content as parent_content",
      "parent.status as parent_status",
      "comments.remote_note_url",
      "comments.remote_via",
      "posts.title as post_title",
      "posts.slug as post_slug",
    ])
    .where("comments.status", "=", filter.status)
    .orderBy("comments.created_at", "desc")
    .orderBy("comments.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    ...toComment(row),
    status: row.status,
    ipHash: row.ip_hash,
    heldReason: row.held_reason,
    postTitle: row.post_title,
    postSlug: row.post_slug,
    ...(row.parent_author !== null && row.parent_content !== null && row.parent_status !== null
      ? { parent: { author: row.parent_author, content: row.parent_content, status: row.parent_status } }
      : {}),
    ...(row.remote_via === "webmention" && row.remote_note_url ? { mentionSource: row.remote_note_url } : {}),
  }));
}

/** How many comments each tab holds, under the same post and search filter. */
export async function countCommentsByStatus(
  db: Kysely<Database>,
  filter: Omit<ModerationFilter, "status">,
): Promise<Record<CommentStatus, number>> {
  const rows = await selectModerated(db, filter)
    .select(["comments.status", (eb) => eb.fn.countAll<number | string>().as("count")])
    .groupBy("comments.status")
    .execute();
  const counts: Record<CommentStatus, number> = { pending: 0, approved: 0, spam: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

export async function countPendingComments(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("comments")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const HELD_REASON_BY_MODERATOR: Record<CommentStatus, string | null> = {
  approved: null,
  pending: "Unapproved",
  spam: "Marked as spam",
};

/** Sets the status of these comments (a page's worth at most); returns how many changed. */
export async function setCommentStatus(
  db: Kysely<Database>,
  ids: readonly string[],
  status: CommentStatus,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable("comments")
    .set({ status, held_reason: HELD_REASON_BY_MODERATOR[status] })
    .where("id", "in", ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes these comments and the replies under them (docs/decisions/0023); returns how many went. */
export async function deleteComments(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom("comments")
    .where((eb) => eb.or([eb("id", "in", ids), eb("parent_id", "in", ids)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks these comments as spam and puts their addresses on the spam list, together. */
export async function markCommentsAsSpam(db: Kysely<Database>, ids: readonly string[], at: string): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const hashes = await trx
      .selectFrom("comments")
      .select("ip_hash")
      .distinct()
      .where("id", "in", ids)
      .where("ip_hash", "is not", null)
      .execute();
    const values = hashes.flatMap((row) => (row.ip_hash ? [{ ip_hash: row.ip_hash, created_at: at }] : []));
    if (values.length > 0) {
      await trx
        .insertInto("comment_spam_addresses")
        .values(values)
        .onConflict((conflict) => conflict.column("ip_hash").doNothing())
        .execute();
    }
    return setCommentStatus(trx, ids, "spam");
  });
}

/** Approving a spam comment forgives its address: later comments from it are no longer held for that. */
export async function approveComments(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    const forgiven = trx
      .selectFrom("comments")
      .select("ip_hash")
      .where("id", "in", ids)
      .where("status", "=", "spam")
      .where("ip_hash", "is not", null)
      .$narrowType<{ ip_hash: string }>();
    await trx.deleteFrom("comment_spam_addresses").where("ip_hash", "in", forgiven).execute();
    return setCommentStatus(trx, ids, "approved");
  });
}

/** The posts a short list of comments (a moderation request, at most a page) belongs to. */
export async function listPostIdsOfComments(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("comments").select("post_id").distinct().where("id", "in", ids).execute();
  return rows.map((row) => row.post_id);
}
