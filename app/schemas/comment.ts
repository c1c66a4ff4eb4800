import { z } from "zod";

export const COMMENT_AUTHOR_MAX = 80;
export const COMMENT_CONTENT_MAX = 5000;

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
});

export type CommentInput = z.infer<typeof commentSchema>;
