import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";
import { WRITER_EMAIL_MODES } from "./comment-emails.ts";

export const BLOCKLIST_MAX = 20_000;
export const CLOSE_AFTER_DAYS_MAX = 36_500;

const closeAfterDaysMessage = `Enter a whole number of days from 1 to ${CLOSE_AFTER_DAYS_MAX.toLocaleString("en-US")}, or leave it empty`;

/** The writer's comment policy, as the settings form sends it and as it is stored. */
export const commentSettingsSchema = z.object({
  holdAll: z.boolean().default(false),
  /** Words, addresses or domains, one a line; a comment whose name or text contains one is held. */
  blocklist: z
    .string()
    .max(BLOCKLIST_MAX, `The blocklist must be at most ${BLOCKLIST_MAX.toLocaleString("en-US")} characters`)
    .transform((text) => text.replace(/\r\n?/g, "\n").trim())
    .default(""),
  /** null: comments stay open for ever. */
  closeAfterDays: z
    .union([
      z.literal("").transform(() => null),
      z.null(),
      z.coerce
        .number({ error: closeAfterDaysMessage })
        .int(closeAfterDaysMessage)
        .min(1, closeAfterDaysMessage)
        .max(CLOSE_AFTER_DAYS_MAX, closeAfterDaysMessage),
    ])
    .default(null),
});

export type CommentSettings = z.infer<typeof commentSettingsSchema>;

export const DEFAULT_COMMENT_SETTINGS: CommentSettings = { holdAll: false, blocklist: "", closeAfterDays: null };

/**
 * The comment settings screen: the policy, and while email is on how the writer hears of new
 * comments (kept in the settings store by server/comment-emails); absent, that setting stays as it is.
 */
export const commentSettingsScreenSchema = commentSettingsSchema.extend({
  writerEmails: z.enum(WRITER_EMAIL_MODES, { error: "Please choose how you hear of new comments" }).optional(),
});

/** What the settings form holds, before validation. */
export function commentSettingsFormValues(formData: FormData) {
  const writerEmails = formText(formData, "writerEmails");
  return {
    holdAll: formData.get("holdAll") === "on",
    blocklist: formText(formData, "blocklist"),
    closeAfterDays: formText(formData, "closeAfterDays").trim(),
    ...(writerEmails === "" ? {} : { writerEmails }),
  };
}

export const commentSettingsForm = defineForm({
  fields: ["holdAll", "blocklist", "closeAfterDays", "writerEmails"],
  read: commentSettingsFormValues,
  schema: commentSettingsScreenSchema,
});
