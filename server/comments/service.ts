import { createHmac } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import {
  type Comment,
  type CommentInput,
  commentSchema,
  type CommentStatus,
  type CommentThreadPage,
  type ModerationAction,
  type RemoteAuthor,
  REPLY_PARENT_GONE_MESSAGE,
} from "#domain/comment.ts";
import { type CommentSettings, commentSettingsSchema, DEFAULT_COMMENT_SETTINGS } from "#domain/comment-settings.ts";
import { COMMENTS_PER_PAGE, pageWindow } from "#domain/pagination.ts";
import type { Database } from "../kernel/db/schema.ts";
import { COMMENTS_CLOSED_MESSAGE } from "#domain/comment.ts";
import { DomainError, RateLimitedError } from "#domain/errors.ts";
import * as comments from "./repositories/comments.ts";
import * as remoteReplies from "./repositories/comments-remote.ts";
import * as threads from "./repositories/comments-threads.ts";
import { type ContentChanges, createContentChanges, postTag } from "../kernel/content-changes.ts";
import * as settings from "../kernel/repositories/settings.ts";
import { areCommentsClosed, COMMENT_POLICY, decideComment } from "./policy.ts";
import { createRateLimiter, type RateLimitPolicy } from "../kernel/rate-limit.ts";
import { remoteAuthorName, remoteReplyText } from "./remote-reply-text.ts";
import { inTransaction } from "../kernel/rows.ts";
import type { CommentMoment } from "./repositories/comments.ts";

export type { CommentMoment } from "./repositories/comments.ts";

/**
 * What follows a comment's life, registered in server/composition.ts (the comment emails). Its
 * work runs inside the transaction that stores the comment, so what it queues is durable with the
 * comment and never queued for one that was not stored; `prepare` reads what that work needs
 * before the transaction opens (on SQLite the transaction holds the one connection, and a read
 * beside it would wait), and `afterCommit` wakes whoever sends it.
 */
export interface CommentLife {
  prepare: () => Promise<CommentWork>;
}

export interface CommentWork {
  /** A comment was taken, published at once or held; `replyEmail` is the address its reader left for replies. */
  taken?: (comment: CommentMoment, trx: Transaction<Database>, reader: { replyEmail?: string }) => Promise<void>;
  /** Comments became public: taken approved, or approved by a moderator. */
  published?: (comments: CommentMoment[], trx: Transaction<Database>) => Promise<void>;
  afterCommit: () => void;
}

/**
 * Per client address: far more than a person writes in ten minutes, few enough that a
 * script cannot bury a post under spam. Counted in the database, so every app server shares it.
 */
export const COMMENT_RATE_LIMIT: RateLimitPolicy = { maxHits: 20, windowMs: 10 * 60 * 1000 };

/** One page of the Comments screen; also the most ids one moderation request may name. */
export const MODERATION_PAGE_SIZE = 50;

const SETTINGS_KEY = "comments";
/** What the Comments screen says of a reply from the fediverse: every one waits for the moderator. */
export const REMOTE_REPLY_HELD_REASON = "Reply from the fediverse";
/** Followed by the replying page's address. */
export const MENTION_REPLY_HELD_REASON = "Reply by Webmention from";
const COMMENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface CommentServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The secret that salts address hashes (COMMENT_IP_SALT or data/comment-ip-salt). */
  ipSalt: string;
  rateLimit?: RateLimitPolicy;
  floodWindowMs?: number;
  changes?: ContentChanges;
  life?: readonly CommentLife[];
}

/** A comment the blog brings itself (the demo content): its text, its writer's name, its time. */
export interface SeededComment extends CommentInput {
  createdAt: string;
}

/** Who wrote a comment as a signed-in writer of the blog: their account and display name. */
export interface CommentingWriter {
  id: string;
  name: string;
}

/** Where a saved comment shows: the post's current address and the page of comments its thread is on. */
export interface SavedComment extends Comment {
  status: CommentStatus;
  postSlug: string;
  /** The page of the post's comments the thread is on (replies only; a new thread is on page 1). */
  page?: number;
}

export interface Visitor {
  clientAddress: string;
  /** The form's hidden field; people leave it empty. */
  honeypot?: string;
}

export function createCommentService({
  db,
  now,
  ipSalt,
  rateLimit = COMMENT_RATE_LIMIT,
  floodWindowMs = COMMENT_POLICY.floodWindowMs,
  changes = createContentChanges(),
  life = [],
}: CommentServiceDeps) {
  const limiter = createRateLimiter({ db, now, secret: ipSalt });
  const hashAddress = (address: string) => createHmac("sha256", ipSalt).update(address).digest("hex");
  const validIds = (ids: readonly string[]) =>
    [...new Set(ids)].filter((id) => COMMENT_ID_PATTERN.test(id)).slice(0, MODERATION_PAGE_SIZE);

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

  /**
   * Stores a comment through `insert` and tells `life` of it in the same transaction; without
   * anything registered (email off) the insert alone, as before.
   */
  async function takeComment<T extends { id: string } | undefined>(
    insert: (db: Kysely<Database>) => Promise<T>,
    reader: { replyEmail?: string } = {},
  ): Promise<T> {
    if (life.length === 0) return insert(db);
    const work = await Promise.all(life.map((hooks) => hooks.prepare()));
    const taken = await inTransaction(db, async (trx) => {
      const inserted = await insert(trx);
      if (!inserted) return inserted;
      const [moment] = await comments.listCommentMoments(trx, [inserted.id]);
      for (const hooks of work) await hooks.taken?.(moment!, trx, reader);
      if (moment!.status === "approved") for (const hooks of work) await hooks.published?.([moment!], trx);
      return inserted;
    });
    for (const hooks of work) hooks.afterCommit();
    return taken;
  }

  /** Approves comments and tells `life` of those that were not public yet, in one transaction. */
  async function approve(ids: readonly string[]): Promise<number> {
    if (life.length === 0) return comments.approveComments(db, ids);
    const work = await Promise.all(life.map((hooks) => hooks.prepare()));
    const approved = await inTransaction(db, async (trx) => {
      const becoming = (await comments.listCommentMoments(trx, ids)).filter((moment) => moment.status !== "approved");
      const changed = await comments.approveComments(trx, ids);
      const published = becoming.map((moment) => ({ ...moment, status: "approved" as const }));
      if (published.length > 0) for (const hooks of work) await hooks.published?.(published, trx);
      return changed;
    });
    for (const hooks of work) hooks.afterCommit();
    return approved;
  }

  async function readSettings(): Promise<CommentSettings> {
    const stored = await settings.readSetting(db, SETTINGS_KEY);
    const parsed = commentSettingsSchema.safeParse(stored ?? {});
    return parsed.success ? parsed.data : DEFAULT_COMMENT_SETTINGS;
  }

  return {
    readSettings,

    async saveSettings(input: CommentSettings): Promise<void> {
      await settings.writeSetting(db, SETTINGS_KEY, input);
    },

    /**
     * Visitors may comment on published posts whose comments are open, at any of a post's
     * addresses (its slug, a former slug, its id); the answer carries the current slug, where
     * the comment shows. With the visitor's address, each attempt counts against that
     * address's budget first, so refused spam costs one write; then the policy
     * (comment-policy.ts) publishes, holds or refuses it. With `replyTo` it is a reply, under the
     * same rules, to a comment readers are shown; it joins that comment's thread. Five
     * statements at most, six for a reply, none reading the post's body
     * (tests/integration/comments.test.ts counts them).
     */
    async addComment(
      postAddress: string,
      input: CommentInput & { replyTo?: string },
      visitor?: Visitor,
    ): Promise<SavedComment> {
      if (visitor) await limiter.consume(`comment:${visitor.clientAddress}`, rateLimit);
      const at = now();
      const found = await comments.findCommentablePost(db, postAddress, at.toISOString());
      if (!found) throw new DomainError("POST_NOT_FOUND", "Post not found");
      const { post } = found;
      if (!post) throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
      const postId = post.id;

      const ipHash = visitor ? hashAddress(visitor.clientAddress) : null;
      const [thread, policySettings, address] = await Promise.all([
        input.replyTo === undefined ? undefined : findThread(postId, input.replyTo, "reader"),
        readSettings(),
        ipHash === null
          ? null
          : comments.describeAddress(db, {
              ipHash,
              postId,
              content: input.content,
              since: new Date(at.getTime() - COMMENT_POLICY.duplicateWindowMs).toISOString(),
            }),
      ]);
      const decision = decideComment(
        { ...input, honeypot: visitor?.honeypot ?? "" },
        { post, settings: policySettings, now: at, address, floodWindowMs },
      );
      if (decision.outcome === "refuse") {
        switch (decision.refusal) {
          case "closed":
            throw new DomainError("COMMENTS_CLOSED", COMMENTS_CLOSED_MESSAGE);
          case "honeypot":
            throw new DomainError("COMMENT_REFUSED", "Comment refused: the hidden field was filled in");
          case "duplicate":
            throw new DomainError("DUPLICATE_COMMENT", "Duplicate comment");
          case "flood":
            throw new RateLimitedError(decision.retryAfterSeconds, "COMMENT_FLOOD");
        }
      }
      const status = decision.outcome === "hold" ? "pending" : "approved";
      const comment = await takeComment(
        (trx) =>
          comments.insertComment(trx, {
            postId,
            author: input.author,
            content: input.content,
            createdAt: at.toISOString(),
            status,
            ipHash,
            heldReason: decision.outcome === "hold" ? decision.reason : null,
            parentId: thread?.threadId,
          }),
        { replyEmail: input.replyEmail },
      );
      // A held comment changes no public page: only its writer sees it, and their pages bypass the cache.
      if (status === "approved") changes.publish([postTag(postId)], "comment");
      return { ...comment, status, postSlug: post.slug, page: thread?.page };
    },

    /**
     * A signed-in writer's comment, or reply to any comment on the post that is not spam: it
     * carries their display name, is marked as theirs and is published at once, whatever the
     * policy says and even once comments are closed to readers. Answering a held comment
     * approves it (and its thread's first comment), as a writer who answers it accepts it.
     */
    async addWriterComment(
      postAddress: string,
      input: { content: string; replyTo?: string },
      writer: CommentingWriter,
    ): Promise<SavedComment> {
      const at = now();
      const found = await comments.findCommentablePost(db, postAddress, at.toISOString());
      if (!found) throw new DomainError("POST_NOT_FOUND", "Post not found");
      const { post } = found;
      if (!post) throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
      const thread = input.replyTo === undefined ? undefined : await findThread(post.id, input.replyTo, "writer");
      const held = new Set<string>();
      if (thread?.status === "pending") held.add(input.replyTo as string);
      if (thread?.threadStatus === "pending") held.add(thread.threadId);
      if (held.size > 0) await approve([...held]);
      const comment = await takeComment((trx) =>
        comments.insertComment(trx, {
          postId: post.id,
          author: writer.name,
          content: input.content,
          createdAt: at.toISOString(),
          status: "approved",
          ipHash: null,
          heldReason: null,
          parentId: thread?.threadId,
          authorUserId: writer.id,
        }),
      );
      changes.publish([postTag(post.id)], "comment");
      return { ...comment, status: "approved", postSlug: post.slug, page: thread?.page };
    },

    listPublicComments,

    /**
     * Comments the blog brings itself (the demo content), approved as a moderator would, with
     * the names and times given and no sender's address. They pass the comment form's schema and
     * go only to a public post, as a visitor's would; none is dated after now.
     */
    async addApprovedComments(postId: string, seeded: readonly SeededComment[]): Promise<Comment[]> {
      const at = now().toISOString();
      const found = await comments.findCommentablePost(db, postId, at);
      if (found?.post?.id !== postId) throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
      const added: Comment[] = [];
      for (const { createdAt, ...input } of seeded) {
        const fields = commentSchema.parse(input);
        const comment = await comments.insertComment(db, {
          postId,
          ...fields,
          createdAt: new Date(Math.min(Date.parse(createdAt), Date.parse(at))).toISOString(),
          status: "approved",
          ipHash: null,
          heldReason: null,
        });
        added.push(comment);
      }
      if (added.length > 0) changes.publish([postTag(postId)], "comment");
      return added;
    },

    /**
     * A reply from the fediverse to a public post whose comments are open becomes a held comment
     * (issue 25): its HTML read as text (remote-reply-text.ts), its author's name and handle, a
     * link to their profile. The same note again changes nothing; an edit of it (same author)
     * replaces the text and holds it again. Undefined when the post takes no comment or the
     * note has no text.
     */
    async receiveRemoteReply(reply: {
      postId: string;
      /** The top-level comment it answers, when it replies to a note that is a comment here (`findNoteThread`). */
      parentId?: string;
      noteUrl: string;
      remoteAuthor: RemoteAuthor;
      authorName: string | null;
      contentHtml: string;
      published?: Date;
    }): Promise<{ commentId: string; outcome: "held" | "edited" | "unchanged" } | undefined> {
      const at = now();
      const content = remoteReplyText(reply.contentHtml);
      const author = remoteAuthorName(reply.authorName, reply.remoteAuthor.handle);
      if (content === "") return undefined;
      const existing = await remoteReplies.findRemoteReply(db, reply.noteUrl, reply.remoteAuthor.url);
      if (existing) {
        // Spam stays spam whatever its author edits.
        if (existing.content === content || existing.status === "spam") {
          return { commentId: existing.id, outcome: "unchanged" };
        }
        await remoteReplies.updateRemoteReply(db, existing.id, {
          author,
          content,
          heldReason: REMOTE_REPLY_HELD_REASON,
        });
        if (existing.status === "approved") changes.publish([postTag(existing.postId)], "comment");
        return { commentId: existing.id, outcome: "edited" };
      }
      const [found, policySettings] = await Promise.all([
        comments.findCommentablePost(db, reply.postId, at.toISOString()),
        readSettings(),
      ]);
      const post = found?.post;
      if (!post || post.id !== reply.postId || areCommentsClosed(post, policySettings, at)) return undefined;
      // A remote clock may be ahead, or lie: a reply is never dated after its arrival.
      const published = reply.published && reply.published.getTime() < at.getTime() ? reply.published : at;
      const comment = await takeComment((trx) =>
        remoteReplies.insertRemoteReply(trx, {
          postId: post.id,
          author,
          content,
          createdAt: published.toISOString(),
          heldReason: REMOTE_REPLY_HELD_REASON,
          noteUrl: reply.noteUrl,
          remoteAuthor: reply.remoteAuthor,
          parentId: reply.parentId,
        }),
      );
      return comment && { commentId: comment.id, outcome: "held" };
    },

    /**
     * Where a note replying to another note belongs, when that note became a comment here: its
     * post and the thread it joins. Undefined for any other note, and for spam.
     */
    async findNoteThread(noteUrl: string): Promise<{ postId: string; threadId: string } | undefined> {
      return remoteReplies.findNoteThread(db, noteUrl);
    },

    /** Removes the comment a note became, when its author deletes the note; false when there was none. */
    async removeRemoteReply(noteUrl: string, actorUrl: string): Promise<boolean> {
      const removed = await remoteReplies.deleteRemoteReply(db, noteUrl, actorUrl);
      if (removed?.status === "approved") changes.publish([postTag(removed.postId)], "comment");
      return removed !== undefined;
    },

    /**
     * A page that replied to a public post by Webmention (server/webmention) becomes a held
     * comment, as a fediverse reply does: its content read as text, its author linked. The page
     * changed: its comment takes the new text and waits for the moderator again; unchanged (or
     * spam), it stays as it is. Undefined when the post takes no comment or the reply has no text.
     */
    async receiveMentionReply(reply: {
      postId: string;
      source: string;
      remoteAuthor: RemoteAuthor;
      authorName: string | null;
      contentHtml: string;
      published?: Date;
    }): Promise<{ commentId: string; outcome: "held" | "edited" | "unchanged" } | undefined> {
      const at = now();
      const content = remoteReplyText(reply.contentHtml);
      const author = remoteAuthorName(reply.authorName, reply.remoteAuthor.handle);
      if (content === "") return undefined;
      const heldReason = `${MENTION_REPLY_HELD_REASON} ${reply.source}`;
      const existing = await remoteReplies.findMentionReply(db, reply.source);
      if (existing) {
        if ((existing.content === content && existing.author === author) || existing.status === "spam") {
          return { commentId: existing.id, outcome: "unchanged" };
        }
        await remoteReplies.updateMentionReply(db, existing.id, {
          author,
          content,
          heldReason,
          remoteAuthor: reply.remoteAuthor,
        });
        if (existing.status === "approved") changes.publish([postTag(existing.postId)], "comment");
        return { commentId: existing.id, outcome: "edited" };
      }
      const [found, policySettings] = await Promise.all([
        comments.findCommentablePost(db, reply.postId, at.toISOString()),
        readSettings(),
      ]);
      const post = found?.post;
      if (!post || post.id !== reply.postId || areCommentsClosed(post, policySettings, at)) return undefined;
      const published = reply.published && reply.published.getTime() < at.getTime() ? reply.published : at;
      const comment = await takeComment((trx) =>
        remoteReplies.insertMentionReply(trx, {
          postId: post.id,
          author,
          content,
          createdAt: published.toISOString(),
          heldReason,
          source: reply.source,
          remoteAuthor: reply.remoteAuthor,
        }),
      );
      return comment && { commentId: comment.id, outcome: "held" };
    },

    /** Removes the comment a replying page became, when it is gone or no longer links the post. */
    async removeMentionReply(source: string): Promise<boolean> {
      const removed = await remoteReplies.deleteMentionReply(db, source);
      if (removed?.status === "approved") changes.publish([postTag(removed.postId)], "comment");
      return removed !== undefined;
    },

    /** Replies from the fediverse per post, held ones included, spam left out. */
    async countRemoteReplies(postIds: readonly string[]): Promise<Map<string, number>> {
      return remoteReplies.countRemoteReplies(db, postIds);
    },

    /**
     * Everything under a post's article: a page of its threads (newest first, replies oldest
     * first under each), whether it takes comments now, and which of the visitor's own held
     * comments and replies (`visitorPendingIds`, from their cookie) to show them.
     */
    async describeThread(
      post: { id: string; createdAt: string; commentsClosed: boolean },
      visitorPendingIds: readonly string[] = [],
      commentPage = 1,
    ): Promise<{ comments: CommentThreadPage; open: boolean; awaitingModeration: Comment[] }> {
      const ids = validIds(visitorPendingIds);
      const [page, policySettings, awaitingModeration] = await Promise.all([
        listPublicComments(post.id, commentPage),
        readSettings(),
        comments.listPendingCommentsByIds(db, post.id, ids),
      ]);
      return { comments: page, open: !areCommentsClosed(post, policySettings, now()), awaitingModeration };
    },

    /** The comments taken in [from, to), for the writer's daily digest (server/comment-emails). */
    async listCommentsTakenBetween(from: Date, to: Date, limit: number, trx?: Transaction<Database>) {
      return comments.listCommentsTakenBetween(trx ?? db, { from: from.toISOString(), to: to.toISOString(), limit });
    },

    /** These comments with their post's title and address, in the caller's transaction when given. */
    async listCommentMoments(ids: readonly string[], trx?: Transaction<Database>): Promise<CommentMoment[]> {
      return comments.listCommentMoments(trx ?? db, validIds(ids));
    },

    async countPending(): Promise<number> {
      return comments.countPendingComments(db);
    },

    /** The tab the Comments screen opens on when none is named: Pending when any wait, else Approved. */
    async openingModerationTab(filter: { postId?: string; search?: string }): Promise<CommentStatus> {
      return openingTab(await comments.countCommentsByStatus(db, filter));
    },

    /** One page of a tab of the Comments screen; without a tab, the opening one. */
    async listForModeration(options: { status?: CommentStatus; postId?: string; search?: string; page?: number }) {
      const filter = { postId: options.postId, search: options.search };
      const counts = await comments.countCommentsByStatus(db, filter);
      const status = options.status ?? openingTab(counts);
      const pageCount = Math.max(1, Math.ceil(counts[status] / MODERATION_PAGE_SIZE));
      const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
      const rows = await comments.listModeratedComments(
        db,
        { ...filter, status },
        { limit: MODERATION_PAGE_SIZE, offset: (page - 1) * MODERATION_PAGE_SIZE },
      );
      return { status, counts, page, pageCount, comments: rows };
    },

    /**
     * Applies one moderation action to up to a page of comments; returns how many it changed.
     * Deleting a comment deletes the replies under it; spam or unapproved, its thread is hidden
     * with it and comes back if it is approved again (docs/decisions/0023).
     */
    async moderate(action: ModerationAction, ids: readonly string[]): Promise<number> {
      const chosen = validIds(ids);
      const affectedPosts = await comments.listPostIdsOfComments(db, chosen);
      const changed = await {
        approve: () => approve(chosen),
        unapprove: () => comments.setCommentStatus(db, chosen, "pending"),
        spam: () => comments.markCommentsAsSpam(db, chosen, now().toISOString()),
        delete: () => comments.deleteComments(db, chosen),
      }[action]();
      changes.publish(affectedPosts.map(postTag), "comment");
      return changed;
    },
  };
}

function openingTab(counts: Record<CommentStatus, number>): CommentStatus {
  return counts.pending > 0 ? "pending" : "approved";
}

export type CommentService = ReturnType<typeof createCommentService>;
