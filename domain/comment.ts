import { defineForm, formText } from "./forms.ts";
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
}

export interface RemoteAuthor {
  handle: string;
  url: string;
}

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
  ipHash: string | null;
  heldReason: string | null;
  postTitle: string;
  postSlug: string;
}
