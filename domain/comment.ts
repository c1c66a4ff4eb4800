// zod/mini: this schema also runs in the browser on every post page, where the full zod
// build would be a quarter of the page's JavaScript (docs/decisions/0005).
import * as z from "zod/mini";
import { defineForm, formText } from "./forms.ts";

// No `new Function` probe under the CSP (see domain/zod.ts); the setting is shared by both builds.
z.config({ jitless: true });

export const COMMENT_AUTHOR_MAX = 80;
export const COMMENT_CONTENT_MAX = 5000;

export const commentSchema = z.object({
  author: z
    .string({ error: "Please enter your name" })
    .check(
      z.trim(),
      z.minLength(1, "Please enter your name"),
      z.maxLength(COMMENT_AUTHOR_MAX, `Name must be at most ${COMMENT_AUTHOR_MAX} characters`),
    ),
  content: z
    .string({ error: "Please enter a comment" })
    .check(
      z.trim(),
      z.minLength(1, "Please enter a comment"),
      z.maxLength(
        COMMENT_CONTENT_MAX,
        `Comment must be at most ${COMMENT_CONTENT_MAX.toLocaleString("en-US")} characters`,
      ),
    ),
});

export type CommentInput = z.infer<typeof commentSchema>;

/** A visitor's comment as stored and shown: approved text, never HTML. */
export interface Comment {
  id: string;
  postId: string;
  author: string;
  content: string;
  createdAt: string;
}

export const commentForm = defineForm({
  fields: ["author", "content"],
  read: (formData: FormData) => ({ author: formText(formData, "author"), content: formText(formData, "content") }),
  schema: commentSchema,
});

export type CommentField = (typeof commentForm.fields)[number];

export const COMMENT_STATUSES = ["pending", "approved", "spam"] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const MODERATION_ACTIONS = ["approve", "unapprove", "spam", "delete"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
