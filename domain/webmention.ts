import { defineForm } from "./forms.ts";
import { z } from "./zod.ts";

/** What a page that links a post says it is (its microformats: in-reply-to, like-of, repost-of, bookmark-of), else a mention. */
export const MENTION_KINDS = ["reply", "like", "repost", "bookmark", "mention"] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

/** Mentions of one post, by kind: what the writer sees beside the fediverse's likes and boosts. */
export type MentionCounts = Record<MentionKind, number>;

export const EMPTY_MENTION_COUNTS: MentionCounts = { reply: 0, like: 0, repost: 0, bookmark: 0, mention: 0 };

/** The site's Webmention switches (the settings store's group "webmention"). */
export const webmentionSettingsSchema = z.object({
  /** Published posts tell the pages they link (each post may still opt out). */
  send: z.boolean(),
  /** Other sites' mentions are taken in (verified, then counted or held as comments). */
  receive: z.boolean(),
});

export type WebmentionSettings = z.infer<typeof webmentionSettingsSchema>;

export const DEFAULT_WEBMENTION_SETTINGS: WebmentionSettings = { send: true, receive: true };

/** Where other sites send their mentions, announced on every post page. */
export const WEBMENTION_PATH = "/webmention";

export const webmentionSettingsForm = defineForm({
  fields: ["send", "receive"],
  read: (formData: FormData) => ({ send: formData.get("send") === "on", receive: formData.get("receive") === "on" }),
  schema: webmentionSettingsSchema,
});
