import { z } from "./zod.ts";
import { defineForm, formText, formTexts } from "./forms.ts";
import { isOwnMediaPath } from "./media.ts";

/** The longest slug: long enough for a readable title, short enough for a URL someone pastes. */
export const SLUG_MAX_LENGTH = 80;

/**
 * A post's address in a URL: its 16-character base64url id, or a slug of [a-z0-9-];
 * anything else names no post and is answered without a query.
 */
const POST_ADDRESS_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${SLUG_MAX_LENGTH}}$`);

export function isPostId(value: string): boolean {
  return POST_ADDRESS_PATTERN.test(value);
}

/** How a body is written; the writer picks per post, new posts start in Markdown. */
export const POST_FORMATS = ["markdown", "html"] as const;
export type PostFormat = (typeof POST_FORMATS)[number];

/**
 * A post as stored: what the writer set (the schema's output) plus what the save derived
 * (`contentHtml`: the body rendered and sanitised; reading time; the publishing time in UTC)
 * and what the database gives. `content` is the source as typed.
 */
export type Post = Omit<PostInput, "category" | "slug" | "publishAt" | "publishAtOffset" | "emailSubscribers"> & {
  id: string;
  /** The URL name: /blog/{slug}. Unique among posts and among the slugs posts had before. */
  slug: string;
  category: string;
  contentHtml: string;
  readingMinutes: number;
  /** ISO time in UTC from which a published post is public; null: as soon as it is published. */
  publishAt: string | null;
  /** Whether the post is emailed to subscribers when it first becomes public, and whether it was. */
  newsletter: PostNewsletter;
  createdAt: string;
  updatedAt: string;
};

/** What lists and cards need: everything but the body, which can be large. */
export type PostSummary = Omit<Post, "content" | "contentHtml">;

export type PostStatus = "Draft" | "Scheduled" | "Published";

/** The admin list's status filters (`/admin/posts?status=…`), which the Dashboard's figures open. */
export const POST_LIST_FILTERS = { draft: "Drafts", scheduled: "Scheduled posts" } as const;
export type PostListFilter = keyof typeof POST_LIST_FILTERS;

/** A `status` query value as a filter; anything else lists every post. */
export function readPostListFilter(value: string): PostListFilter | undefined {
  return Object.hasOwn(POST_LIST_FILTERS, value) ? (value as PostListFilter) : undefined;
}

/** What the admin list calls a post at a given moment. */
export function postStatus(post: Pick<PostSummary, "published" | "publishAt">, now: Date): PostStatus {
  if (!post.published) return "Draft";
  return post.publishAt !== null && Date.parse(post.publishAt) > now.getTime() ? "Scheduled" : "Published";
}

/**
 * A post's email (docs/decisions/0014-newsletter-outbox.md): `off` not wanted, `wanted` to be
 * emailed when it first becomes public, `sent` its send was made, `closed` it became public
 * without one. `sent` and `closed` are final: a post is emailed once in its life, or never.
 */
export const POST_NEWSLETTER_STATES = ["off", "wanted", "sent", "closed"] as const;
export type PostNewsletter = (typeof POST_NEWSLETTER_STATES)[number];

/**
 * The newsletter state a save leaves. `after.newsletter` is the writer's box (`wanted` or `off`);
 * it counts only while the post has never been public, and only where email is set up. A post
 * public after the save without a wanted email is closed for good; a wanted one public after
 * the save is sent by the save itself (server/newsletter/post-newsletter.ts).
 */
export function newsletterAfterSave(
  before: Pick<Post, "newsletter" | "published" | "publishAt"> | undefined,
  after: Pick<Post, "newsletter" | "published" | "publishAt">,
  emailOn: boolean,
  now: Date,
): PostNewsletter {
  if (before?.newsletter === "sent" || before?.newsletter === "closed") return before.newsletter;
  if (before && isPublicAt(before, now)) return before.newsletter === "wanted" ? "wanted" : "closed";
  if (after.newsletter === "wanted" && emailOn) return "wanted";
  return isPublicAt(after, now) ? "closed" : "off";
}

/** Whether readers can see the post at `now`: published, and its time (if any) has come. */
export function isPublicAt(post: Pick<PostSummary, "published" | "publishAt">, now: Date): boolean {
  return postStatus(post, now) === "Published";
}

/** What a writer sets; the id and timestamps are the database's to give. */
export type PostFields = Omit<Post, "id" | "createdAt" | "updatedAt">;

/** What a save is given: the body as written. The save renders the rest (`contentHtml`, reading time). */
export type PostDraft = Omit<PostFields, "contentHtml" | "readingMinutes">;

export interface CategorySummary {
  category: string;
  postCount: number;
  firstExcerpt: string;
}

/** docs/spec.md §8: the message when a post could not be saved. */
export const SAVE_FAILED_MESSAGE = "Failed to save post. Please try again.";

export const POST_LIMITS = {
  title: 200,
  excerpt: 500,
  author: 100,
  coverImage: 2048,
  content: 200_000,
  tags: 20,
  tag: 40,
  slug: 200,
  canonicalUrl: 2048,
} as const;

function requiredText(required: string, max: number, label: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`);
}

export const postSchema = z.object({
  title: requiredText("Title is required", POST_LIMITS.title, "Title"),
  /** Blank: the server derives it from the title. Otherwise it is folded to lower-case ASCII. */
  slug: z
    .string()
    .trim()
    .max(POST_LIMITS.slug, `Slug must be at most ${POST_LIMITS.slug} characters`)
    .refine((value) => value === "" || /[\p{L}\p{N}]/u.test(value), "Slug must contain a letter or a digit")
    .optional(),
  content: requiredText("Content is required", POST_LIMITS.content, "Content"),
  excerpt: requiredText("Excerpt is required", POST_LIMITS.excerpt, "Excerpt"),
  author: requiredText("Author is required", POST_LIMITS.author, "Author"),
  coverImage: requiredText("Cover image URL is required", POST_LIMITS.coverImage, "Cover image URL").refine(
    (value) => value.startsWith("http") || isOwnMediaPath(value),
    "Please enter a valid URL",
  ),
  // One of the writer's categories (the posts service refuses a name it does not keep).
  category: z.string({ error: "Category is required" }).trim().min(1, "Category is required"),
  /** Where the post was first published, if not here (syndicated writing); empty: here. */
  canonicalUrl: z
    .string()
    .trim()
    .max(
      POST_LIMITS.canonicalUrl,
      `Canonical URL must be at most ${POST_LIMITS.canonicalUrl.toLocaleString("en-US")} characters`,
    )
    .refine(
      (value) => value === "" || isWebAddress(value),
      "Canonical URL must be a full web address starting with http:// or https://",
    )
    .default(""),
  tags: z
    .array(z.string().trim().max(POST_LIMITS.tag, `Tags must be at most ${POST_LIMITS.tag} characters`))
    .max(POST_LIMITS.tags, `At most ${POST_LIMITS.tags} tags`)
    .transform(uniqueNonEmptyTags)
    .default([]),
  published: z.boolean().default(false),
  commentsClosed: z.boolean().default(false),
  /** The pages the post links are not told of it (Webmention, server/webmention). */
  webmentionsOff: z.boolean().default(false),
  /** Email the post to subscribers when it first becomes public (the save decides: newsletterAfterSave). */
  emailSubscribers: z.boolean().default(false),
  format: z.enum(POST_FORMATS, { error: "Choose Markdown or HTML" }).default("markdown"),
  /** "at a time": a date and time as the writer's clock reads it (`datetime-local`), or empty for now. */
  publishAt: z
    .string()
    .trim()
    .refine((value) => value === "" || localDateTimeToUtc(value, "0") !== undefined, "Please enter a date and time")
    .default(""),
  /**
   * Minutes to add to `publishAt` to reach UTC (`Date#getTimezoneOffset` for that moment), filled
   * in by the browser; without JavaScript it stays empty and the time is read as UTC.
   */
  publishAtOffset: z
    .string()
    .trim()
    .regex(/^(-?\d{1,4})?$/, "The time zone could not be read. Please reload the page and try again.")
    .default(""),
});

export type PostInput = z.infer<typeof postSchema>;

/** The title a draft saved without one gets, so the posts list can still name it. */
export const UNTITLED = "Untitled";

/** Text that may be left empty while the post is a draft, still bounded by the field's limit. */
function draftText(max: number, label: string) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`)
    .default("");
}

/**
 * "Save draft": the writer keeps unfinished work with as little as a title (an empty one becomes
 * "Untitled"). The rules a reader relies on (docs/spec.md §5: excerpt, author, cover image,
 * category, content) wait for "Create Post" or a save that publishes; what is typed must still
 * fit its limits and, where given, be well formed. A draft save never publishes.
 */
export const postDraftSchema = postSchema.extend({
  title: draftText(POST_LIMITS.title, "Title").transform((title) => title || UNTITLED),
  content: draftText(POST_LIMITS.content, "Content"),
  excerpt: draftText(POST_LIMITS.excerpt, "Excerpt"),
  author: draftText(POST_LIMITS.author, "Author"),
  coverImage: draftText(POST_LIMITS.coverImage, "Cover image URL").refine(
    (value) => value === "" || value.startsWith("http") || isOwnMediaPath(value),
    "Please enter a valid URL",
  ),
  // A draft may have no category yet: it is stored empty, and publishing asks for one.
  category: z.union([z.literal(""), postSchema.shape.category]).default(""),
  published: z.boolean().transform(() => false),
});

/** What a save is given: the full rules' output, or a draft's. */
export type PostSaveInput = PostInput | z.infer<typeof postDraftSchema>;

function isWebAddress(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A `datetime-local` value read with a UTC offset in minutes (UTC = local + offset), as an ISO string. */
export function localDateTimeToUtc(local: string, offsetMinutes: string): string | undefined {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const asUtc = Date.UTC(year!, month! - 1, day, hour, minute, second);
  const date = new Date(asUtc);
  // Date.UTC rolls 31 February over into March; a date that rolled over was never valid.
  if (date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return undefined;
  return new Date(asUtc + Number(offsetMinutes || 0) * 60_000).toISOString();
}

/** An ISO time as a `datetime-local` value in UTC (the browser moves it to the writer's zone). */
export function utcToLocalDateTime(iso: string): string {
  return iso.slice(0, 16);
}

/** What the post form holds: everything as typed, before validation. */
type PostFieldName = keyof typeof postSchema.shape;

/** What the post form holds: everything as typed, before validation (text, tag list, checkbox). */
export type PostFormValues = {
  [Name in PostFieldName]: PostInput[Name] extends boolean
    ? boolean
    : PostInput[Name] extends string[]
      ? string[]
      : string;
};

const POST_FIELD_NAMES = Object.keys(postSchema.shape) as PostFieldName[];

/**
 * Reads the post form, in the browser and in the action alike, from the schema's own
 * fields: text as typed, booleans from checkboxes. Tags arrive as repeated `tags` fields
 * (one per chip) and as `newTags`, a comma-separated box that also serves browsers
 * without JavaScript.
 */
export function postFormValues(formData: FormData): PostFormValues {
  const values: Record<string, unknown> = {};
  for (const name of POST_FIELD_NAMES) {
    const emptyValue = (postSchema.shape[name] as z.ZodType).safeParse(undefined);
    values[name] =
      name === "tags"
        ? uniqueNonEmptyTags([...formTexts(formData, "tags"), ...formText(formData, "newTags").split(",")])
        : emptyValue.success && typeof emptyValue.data === "boolean"
          ? formData.get(name) === "on"
          : // A field the form did not send takes the schema's default (a client without the format picker writes Markdown).
            formData.has(name) || !emptyValue.success
            ? formText(formData, name)
            : emptyValue.data;
  }
  return values as PostFormValues;
}

export const EMPTY_POST_FORM: PostFormValues = postFormValues(new FormData());

/** A stored post as the editor shows it. */
export function toPostFormValues(post: Post): PostFormValues {
  const values: Record<string, unknown> = {};
  for (const name of POST_FIELD_NAMES) {
    if (name === "publishAt") values[name] = post.publishAt === null ? "" : utcToLocalDateTime(post.publishAt);
    else if (name === "publishAtOffset") values[name] = post.publishAt === null ? "" : "0";
    else if (name === "emailSubscribers") values[name] = post.newsletter === "wanted" || post.newsletter === "sent";
    else values[name] = post[name];
  }
  return values as PostFormValues;
}

export const postForm = defineForm({
  fields: POST_FIELD_NAMES,
  read: postFormValues,
  schema: postSchema,
});

export type PostField = (typeof postForm.fields)[number];

/** The same form judged by the draft rules, for "Save draft". */
export const postDraftForm = defineForm({
  fields: POST_FIELD_NAMES,
  read: postFormValues,
  schema: postDraftSchema,
});

/** Trimmed, empties dropped, duplicates (ignoring case) dropped, first spelling kept. */
export function uniqueNonEmptyTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag && !seen.has(key)) {
      seen.add(key);
      result.push(tag);
    }
  }
  return result;
}
