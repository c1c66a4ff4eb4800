import { createHmac } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import {
  type Comment,
  type CommentInput,
  commentSchema,
  type CommentStatus,
  type CommentThreadPage,
  type ModerationAction,
} from "#domain/comment.ts";
import { type CommentSettings, commentSettingsSchema, DEFAULT_COMMENT_SETTINGS } from "#domain/comment-settings.ts";
import type { Database } from "../kernel/db/schema.ts";
import { COMMENTS_CLOSED_MESSAGE } from "#domain/comment.ts";
import { DomainError, RateLimitedError } from "#domain/errors.ts";
import * as comments from "./repositories/comments.ts";
import { COMMENT_ID_PATTERN, createThreadReads } from "./threads.ts";
import { type ContentChanges, createContentChanges, postTag } from "../kernel/content-changes.ts";
import * as settings from "../kernel/repositories/settings.ts";
import { areCommentsClosed, COMMENT_POLICY, decideComment } from "./policy.ts";
import { createRateLimiter, type RateLimitPolicy } from "../kernel/rate-limit.ts";
import { createRemoteReplies } from "./remote-replies.ts";
import { inTransaction } from "../kernel/rows.ts";
import * as moments from "./repositories/comment-moments.ts";
import type { CommentMoment } from "./repositories/comment-moments.ts";

export type { CommentMoment } from "./repositories/comment-moments.ts";

/**
 * What follows a comment's life, registered in server/composition.ts (the comment emails). Its
 * work runs inside the transaction that stores the comment, so what it queues is durable with the
 * comment and never queued for one that was not stored; `prepare` reads what that work needs
 * before the transaction opens (on SQLite the transaction holds the one connection, and a read
 * beside it would wait), and `afterCommit` wakes whoever sends it.
 */
export interface CommentLife {
  /** Undefined when there is nothing to do for this comment (no webhook wants it): no transaction is opened for it. */
  prepare: () => Promise<CommentWork | undefined>;
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

  const { listPublicComments, findThread } = createThreadReads(db);

  /** The work of every hook that has some for this change. */
  async function prepareLife(): Promise<CommentWork[]> {
    const prepared = await Promise.all(life.map((hooks) => hooks.prepare()));
    return prepared.filter((work) => work !== undefined);
  }

  /**
   * Stores a comment through `insert` and tells `life` of it in the same transaction; when no
   * hook has anything to do (email off), the insert alone, as before.
   */
  async function takeComment<T extends { id: string } | undefined>(
    insert: (db: Kysely<Database>) => Promise<T>,
    reader: { replyEmail?: string } = {},
  ): Promise<T> {
    const work = await prepareLife();
    if (work.length === 0) return insert(db);
    const taken = await inTransaction(db, async (trx) => {
      const inserted = await insert(trx);
      if (!inserted) return inserted;
      const [moment] = await moments.listCommentMoments(trx, [inserted.id]);
      for (const hooks of work) await hooks.taken?.(moment!, trx, reader);
      if (moment!.status === "approved") for (const hooks of work) await hooks.published?.([moment!], trx);
      return inserted;
    });
    for (const hooks of work) hooks.afterCommit();
    return taken;
  }

  /** Approves comments and tells `life` of those that were not public yet, in one transaction. */
  async function approve(ids: readonly string[]): Promise<number> {
    const work = await prepareLife();
    if (work.length === 0) return comments.approveComments(db, ids);
    const approved = await inTransaction(db, async (trx) => {
      const becoming = (await moments.listCommentMoments(trx, ids)).filter((moment) => moment.status !== "approved");
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

    ...createRemoteReplies({ db, now, changes, takeComment, readSettings }),

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
      return moments.listCommentsTakenBetween(trx ?? db, { from: from.toISOString(), to: to.toISOString(), limit });
    },

    /** These comments with their post's title and address, in the caller's transaction when given. */
    async listCommentMoments(ids: readonly string[], trx?: Transaction<Database>): Promise<CommentMoment[]> {
      return moments.listCommentMoments(trx ?? db, validIds(ids));
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
