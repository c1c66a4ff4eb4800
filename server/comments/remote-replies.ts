// Replies from elsewhere (a fediverse note, a page sending a Webmention) become held comments
// here, through the comment service's own door (takeComment), so the comment emails follow them.
import type { Kysely } from "kysely";
import type { RemoteAuthor } from "#domain/comment.ts";
import type { CommentSettings } from "#domain/comment-settings.ts";
import type { ContentChanges } from "../kernel/content-changes.ts";
import { postTag } from "../kernel/content-changes.ts";
import type { Database } from "../kernel/db/schema.ts";
import { areCommentsClosed } from "./policy.ts";
import { remoteAuthorName, remoteReplyText } from "./remote-reply-text.ts";
import * as comments from "./repositories/comments.ts";
import * as remoteReplies from "./repositories/comments-remote.ts";

/** What the Comments screen says of a reply from the fediverse: every one waits for the moderator. */
export const REMOTE_REPLY_HELD_REASON = "Reply from the fediverse";
/** Followed by the replying page's address. */
export const MENTION_REPLY_HELD_REASON = "Reply by Webmention from";

export interface RemoteRepliesDeps {
  db: Kysely<Database>;
  now: () => Date;
  changes: ContentChanges;
  /** The comment service's one door for a new comment (its life's hooks run with it). */
  takeComment: <T extends { id: string } | undefined>(insert: (db: Kysely<Database>) => Promise<T>) => Promise<T>;
  readSettings: () => Promise<CommentSettings>;
}

/** A reply from elsewhere as its service receives it. */
interface IncomingReply {
  postId: string;
  remoteAuthor: RemoteAuthor;
  authorName: string | null;
  contentHtml: string;
  published?: Date;
}

type ReplyOutcome = { commentId: string; outcome: "held" | "edited" | "unchanged" } | undefined;

export function createRemoteReplies({ db, now, changes, takeComment, readSettings }: RemoteRepliesDeps) {
  /**
   * The steps a reply from elsewhere takes, from a note or a page alike: read as text (empty is
   * nothing), then the comment it became already is left alone when unchanged (spam stays spam
   * whatever its author edits), or takes the new text and waits for the moderator again; a new
   * one becomes a held comment when its post takes comments.
   */
  async function holdOrEdit(
    reply: IncomingReply & { parentId?: string },
    source: {
      key: remoteReplies.RemoteCommentKey;
      via: "fediverse" | "webmention";
      heldReason: string;
      /** A page's author is read from the page each time; a note's is its key and never changes. */
      authorMayChange: boolean;
    },
  ): Promise<ReplyOutcome> {
    const at = now();
    const content = remoteReplyText(reply.contentHtml);
    const author = remoteAuthorName(reply.authorName, reply.remoteAuthor.handle);
    if (content === "") return undefined;
    const existing = await remoteReplies.findRemoteComment(db, source.key);
    if (existing) {
      const same = existing.content === content && (!source.authorMayChange || existing.author === author);
      if (same || existing.status === "spam") return { commentId: existing.id, outcome: "unchanged" };
      await remoteReplies.updateRemoteComment(db, existing.id, {
        author,
        content,
        heldReason: source.heldReason,
        remoteAuthor: source.authorMayChange ? reply.remoteAuthor : undefined,
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
      remoteReplies.insertRemoteComment(trx, {
        postId: post.id,
        author,
        content,
        createdAt: published.toISOString(),
        heldReason: source.heldReason,
        noteUrl: source.key.noteUrl,
        remoteAuthor: reply.remoteAuthor,
        via: source.via,
        parentId: reply.parentId,
      }),
    );
    return comment && { commentId: comment.id, outcome: "held" };
  }

  /** Removes the comment a reply became; its readers' pages change when it was shown. */
  async function remove(key: remoteReplies.RemoteCommentKey): Promise<boolean> {
    const removed = await remoteReplies.deleteRemoteComment(db, key);
    if (removed?.status === "approved") changes.publish([postTag(removed.postId)], "comment");
    return removed !== undefined;
  }

  return {
    /**
     * A reply from the fediverse to a public post whose comments are open becomes a held comment
     * (issue 25): its HTML read as text (remote-reply-text.ts), its author's name and handle, a
     * link to their profile. The same note again changes nothing; an edit of it (same author)
     * replaces the text and holds it again. Undefined when the post takes no comment or the
     * note has no text.
     */
    async receiveRemoteReply(
      reply: IncomingReply & {
        /** The top-level comment it answers, when it replies to a note that is a comment here (`findNoteThread`). */
        parentId?: string;
        noteUrl: string;
      },
    ): Promise<ReplyOutcome> {
      return holdOrEdit(reply, {
        key: { noteUrl: reply.noteUrl, actorUrl: reply.remoteAuthor.url },
        via: "fediverse",
        heldReason: REMOTE_REPLY_HELD_REASON,
        authorMayChange: false,
      });
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
      return remove({ noteUrl, actorUrl });
    },

    /**
     * A page that replied to a public post by Webmention (server/webmention) becomes a held
     * comment, as a fediverse reply does: its content read as text, its author linked. The page
     * changed: its comment takes the new text and waits for the moderator again; unchanged (or
     * spam), it stays as it is. Undefined when the post takes no comment or the reply has no text.
     */
    async receiveMentionReply(reply: IncomingReply & { source: string }): Promise<ReplyOutcome> {
      return holdOrEdit(reply, {
        key: { noteUrl: reply.source, via: "webmention" },
        via: "webmention",
        heldReason: `${MENTION_REPLY_HELD_REASON} ${reply.source}`,
        authorMayChange: true,
      });
    },

    /** Removes the comment a replying page became, when it is gone or no longer links the post. */
    async removeMentionReply(source: string): Promise<boolean> {
      return remove({ noteUrl: source, via: "webmention" });
    },

    /** Replies from the fediverse per post, held ones included, spam left out. */
    async countRemoteReplies(postIds: readonly string[]): Promise<Map<string, number>> {
      return remoteReplies.countRemoteReplies(db, postIds);
    },
  };
}
