import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";
import { POST_FORMATS, POST_LIMITS, type PostFormat, UNTITLED } from "./post.ts";

/**
 * A page (docs/decisions/0018-pages.md): a post without category, tags, comments, feed or email,
 * served at /{slug}. Its body is written and rendered as a post's is.
 */

/** The pages that exist from the first start, each keeping its original design until first saved. */
export const BUILT_IN_PAGES = ["about", "privacy", "terms"] as const;
export type BuiltInPage = (typeof BUILT_IN_PAGES)[number];

/**
 * First path segments the site answers itself (routes.ts, server/http*.ts): a page there would
 * never be reached, so its slug is refused. Slugs hold only [a-z0-9-], so `rss.xml` and the
 * like cannot clash.
 */
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set([
  "admin",
  "ap",
  "api",
  "assets",
  "author",
  "blog",
  "categories",
  "category",
  "covers",
  "feed",
  "forgot-password",
  "healthz",
  "hit",
  "invite",
  "login",
  "logout",
  "media",
  "nodeinfo",
  "preview",
  "reset-password",
  "search",
  "setup",
  "sitemaps",
  "subscribe",
  "tag",
  "unsubscribe",
]);

export function isReservedPageSlug(slug: string): boolean {
  return RESERVED_PAGE_SLUGS.has(slug);
}

/** The message when a writer names a slug the site keeps for itself. */
export function reservedSlugMessage(slug: string): string {
  return `The address /${slug} belongs to the site itself. Choose another slug.`;
}

export const PAGE_LIMITS = {
  title: POST_LIMITS.title,
  slug: POST_LIMITS.slug,
  content: POST_LIMITS.content,
  description: 300,
} as const;

export const pageSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(PAGE_LIMITS.title, `Title must be at most ${PAGE_LIMITS.title} characters`),
  /** Blank: the server derives it from the title. Otherwise it is folded to lower-case ASCII. */
  slug: z
    .string()
    .trim()
    .max(PAGE_LIMITS.slug, `Slug must be at most ${PAGE_LIMITS.slug} characters`)
    .refine((value) => value === "" || /[\p{L}\p{N}]/u.test(value), "Slug must contain a letter or a digit")
    .default(""),
  content: z
    .string({ error: "Content is required" })
    .trim()
    .min(1, "Content is required")
    .max(PAGE_LIMITS.content, `Content must be at most ${PAGE_LIMITS.content.toLocaleString("en-US")} characters`),
  format: z.enum(POST_FORMATS, { error: "Choose Markdown or HTML" }).default("markdown"),
  /** The search engines' summary and the Open Graph description; blank: the body's opening words. */
  description: z
    .string()
    .trim()
    .max(PAGE_LIMITS.description, `Description must be at most ${PAGE_LIMITS.description} characters`)
    .default(""),
  published: z.boolean().default(false),
  /** Show "Last updated: {date}" under the title (Privacy and Terms do). */
  showLastUpdated: z.boolean().default(false),
});

export type PageInput = z.infer<typeof pageSchema>;

/** "Save draft" for a page, as for a post (domain/post.ts): a title at most (empty: "Untitled"), never published. */
export const pageDraftSchema = pageSchema.extend({
  title: z
    .string()
    .trim()
    .max(PAGE_LIMITS.title, `Title must be at most ${PAGE_LIMITS.title} characters`)
    .transform((title) => title || UNTITLED),
  content: z
    .string()
    .trim()
    .max(PAGE_LIMITS.content, `Content must be at most ${PAGE_LIMITS.content.toLocaleString("en-US")} characters`),
  published: z.boolean().transform(() => false),
});

/** What the page form holds: text as typed, checkboxes as booleans. */
export type PageFormValues = { [Name in keyof PageInput]: PageInput[Name] extends boolean ? boolean : string };

const PAGE_FIELD_NAMES = Object.keys(pageSchema.shape) as (keyof PageInput)[];
const PAGE_CHECKBOXES = new Set<keyof PageInput>(["published", "showLastUpdated"]);

export function pageFormValues(formData: FormData): PageFormValues {
  const values: Record<string, unknown> = {};
  for (const name of PAGE_FIELD_NAMES) {
    if (PAGE_CHECKBOXES.has(name)) values[name] = formData.get(name) === "on";
    // A client without the format picker writes Markdown, as for posts.
    else if (name === "format") values[name] = formData.has(name) ? formText(formData, name) : "markdown";
    else values[name] = formText(formData, name);
  }
  return values as PageFormValues;
}

export const EMPTY_PAGE_FORM: PageFormValues = pageFormValues(new FormData());

export const pageForm = defineForm({
  fields: PAGE_FIELD_NAMES,
  read: pageFormValues,
  schema: pageSchema,
});

export type PageField = (typeof pageForm.fields)[number];

/** The same form judged by the draft rules, for "Save draft". */
export const pageDraftForm = defineForm({
  fields: PAGE_FIELD_NAMES,
  read: pageFormValues,
  schema: pageDraftSchema,
});

/** A page as stored: what the writer set, what the save derived, and what the database gives. */
export interface Page {
  id: string;
  /** The URL name: /{slug}. Unique among pages, never a reserved slug. */
  slug: string;
  title: string;
  content: string;
  format: PostFormat;
  /** `content` rendered and sanitised at save time: what readers get. */
  contentHtml: string;
  description: string;
  published: boolean;
  showLastUpdated: boolean;
  /** About, Privacy or Terms; null for the writer's own pages. */
  builtIn: BuiltInPage | null;
  /** When the writer last saved it; null for a built-in page never saved, which keeps its original design. */
  editedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What lists need: everything but the body. */
export type PageSummary = Omit<Page, "content" | "contentHtml">;

/** What a save is given; the save renders `contentHtml`. */
export type PageDraft = Omit<Page, "id" | "contentHtml" | "builtIn" | "editedAt" | "createdAt" | "updatedAt">;

export function toPageFormValues(page: Page): PageFormValues {
  return {
    title: page.title,
    slug: page.slug,
    content: page.content,
    format: page.format,
    description: page.description,
    published: page.published,
    showLastUpdated: page.showLastUpdated,
  };
}

/** Whether a built-in page still shows the design it shipped with (it was never saved by the writer). */
export function showsOriginalDesign(page: Pick<Page, "builtIn" | "editedAt">): page is Pick<Page, "editedAt"> & {
  builtIn: BuiltInPage;
} {
  return page.builtIn !== null && page.editedAt === null;
}
