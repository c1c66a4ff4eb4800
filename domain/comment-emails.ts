import { z } from "./zod.ts";

/** How the writer hears of new comments while email is on (server/comment-emails, docs/decisions/0024). */
export const WRITER_EMAIL_MODES = ["each", "digest", "off"] as const;
export type WriterEmailMode = (typeof WRITER_EMAIL_MODES)[number];

export const WRITER_EMAIL_MODE_LABELS: Record<WriterEmailMode, string> = {
  each: "One email per new comment",
  digest: "One daily digest",
  off: "No email",
};

export const commentEmailSettingsSchema = z.object({
  writerEmails: z.enum(WRITER_EMAIL_MODES, { error: "Please choose how you hear of new comments" }).default("each"),
});

export type CommentEmailSettings = z.infer<typeof commentEmailSettingsSchema>;

export const DEFAULT_COMMENT_EMAIL_SETTINGS: CommentEmailSettings = { writerEmails: "each" };

/** The comment form's label for the optional address. */
export const REPLY_EMAIL_LABEL = "Email me when someone replies (optional, never shown)";

export const REPLY_UNSUBSCRIBE_LINK_INVALID_MESSAGE =
  "This unsubscribe link is not valid. Use the whole link from the email.";
