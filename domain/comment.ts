import { defineForm, formText } from "./forms.ts";
import type { Page } from "./pagination.ts";
import { z } from "./zod.ts";

export const COMMENT_AUTHOR_MAX = 80;
export const COMMENT_CONTENT_MAX = 5000;
/** RFC 5321's longest path; the subscribe form allows the same. */
export const REPLY_EMAIL_MAX = 254;

export const commentSchema = z.object({
  author: z
    .string({ error: "Please enter your name" })
    .trim()
    .min(1, "Please enter your name")
    .max(COMMENT_AUTHOR_MAX, `Name must be at most ${COMMENT_AUTHOR_MAX} characters`),
  content: z
    .string({ error: "Please enter a comment" })
    .trim()
    .min(1, "Please enter a comment")
    .max(COMMENT_CONTENT_MAX, `Comment must be at most ${COMMENT_CONTENT_MAX.toLocaleString("en-US")} characters`),
  /** "Email me when someone replies": optional, never shown; empty keeps nothing (server/comment-emails). */
  replyEmail: z
    .string()
    .trim()
    .max(REPLY_EMAIL_MAX, `Email must be at most ${REPLY_EMAIL_MAX} characters`)
    .pipe(z.union([z.literal(""), z.email("Please enter a valid email address, or leave it empty")]))
    .transform((email) => (email === "" ? undefined : email))
    .optional(),
});

export type CommentInput = z.infer<typeof commentSchema>;

/** A visitor's comment as stored and shown: approved text, never HTML. */
export interface Comment {
  id: string;
  postId: string;
  author: string;
  content: string;
  createdAt: string;
  /** Present on a reply from the fediverse: its author's handle ("@alice@example.social") and profile. */
  remoteAuthor?: RemoteAuthor;
  /** Present on a reply: the top-level comment it answers (one level of threads, docs/decisions/0023). */
  parentId?: string;
  /** Present when a signed-in writer of the blog wrote it: shown with an "Author" badge. */
  byAuthor?: true;
}

/** A top-level comment with its approved replies, oldest first: what a post page shows. */
export interface CommentThread extends Comment {
  replies: Comment[];
}

/** A page of a post's threads (`total` counts threads, as pages do) and how many comments readers see in all. */
export type CommentThreadPage = Page<CommentThread> & { commentCount: number };

export interface RemoteAuthor {
  handle: string;
  url: string;
}

/** The network a remote comment came by: a fediverse reply, or a page that replied by Webmention. */
export type RemoteVia = "fediverse" | "webmention";

export const commentForm = defineForm({
  fields: ["author", "content", "replyEmail"],
  read: (formData: FormData) => ({
    author: formText(formData, "author"),
    content: formText(formData, "content"),
    replyEmail: formText(formData, "replyEmail"),
  }),
  schema: commentSchema,
});

export type CommentField = (typeof commentForm.fields)[number];

/**
 * A signed-in writer's comment or reply: their display name is the author, so only the text
 * is asked for. The post page and the Comments screen's Reply both send it.
 */
export const writerCommentForm = defineForm({
  fields: ["content"],
  read: (formData: FormData) => ({ content: formText(formData, "content") }),
  schema: commentSchema.pick({ content: true }),
});

export type WriterCommentField = (typeof writerCommentForm.fields)[number];

/** The comment form's hidden field naming the comment a reply answers (any comment: a reply's reply joins its thread). */
export const REPLY_TO_FIELD = "replyTo";

/** The Comments screen's Reply form names itself by this `intent`, beside the moderation actions. */
export const MODERATOR_REPLY_INTENT = "reply";

/** The comment form's anchor: "Reply" links open it there, and a refused comment comes back to it. */
export const COMMENT_FORM_ANCHOR = "comment-form";

/** Refusal of a reply to a comment that is not (or no longer) shown. */
export const REPLY_PARENT_GONE_MESSAGE = "The comment you are replying to is no longer available";

/** The comment form's trap field: people never see it, bots that fill every field do (server/comments/policy.ts). */
export const HONEYPOT_FIELD = "website";

/** Shown in place of the form, and as the refusal of a comment sent anyway. */
export const COMMENTS_CLOSED_MESSAGE = "Comments are closed";

export const COMMENT_STATUSES = ["pending", "approved", "spam"] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const MODERATION_ACTIONS = ["approve", "unapprove", "spam", "delete"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** A comment as the moderator sees it: never the raw address, only its hash. */
export interface ModeratedComment extends Comment {
  status: CommentStatus;
  /** On a reply: who wrote the comment it answers, its opening words and where it stands now. */
  parent?: { author: string; content: string; status: CommentStatus };
  ipHash: string | null;
  heldReason: string | null;
  postTitle: string;
  postSlug: string;
  /** A reply by Webmention: the page that replied, for the moderator to read. */
  mentionSource?: string;
}
