import { z } from "zod";
import { CATEGORIES } from "../lib/categories.ts";

export const POST_LIMITS = {
  title: 200,
  excerpt: 500,
  author: 100,
  coverImage: 2048,
  content: 200_000,
  tags: 20,
  tag: 40,
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
  content: requiredText("Content is required", POST_LIMITS.content, "Content"),
  excerpt: requiredText("Excerpt is required", POST_LIMITS.excerpt, "Excerpt"),
  author: requiredText("Author is required", POST_LIMITS.author, "Author"),
  coverImage: requiredText("Cover image URL is required", POST_LIMITS.coverImage, "Cover image URL").refine(
    (value) => value.startsWith("http"),
    "Please enter a valid URL",
  ),
  category: z.enum(CATEGORIES, { error: "Category is required" }),
  tags: z
    .array(z.string().trim().max(POST_LIMITS.tag, `Tags must be at most ${POST_LIMITS.tag} characters`))
    .max(POST_LIMITS.tags, `At most ${POST_LIMITS.tags} tags`)
    .transform(uniqueNonEmptyTags)
    .default([]),
  published: z.boolean().default(false),
});

export type PostInput = z.infer<typeof postSchema>;

/** What the post form holds: everything as typed, before validation. */
export interface PostFormValues {
  title: string;
  content: string;
  excerpt: string;
  author: string;
  coverImage: string;
  category: string;
  tags: string[];
  published: boolean;
}

export const EMPTY_POST_FORM: PostFormValues = {
  title: "",
  content: "",
  excerpt: "",
  author: "",
  coverImage: "",
  category: "",
  tags: [],
  published: false,
};

/**
 * Reads the post form, in the browser and in the action alike. Tags arrive as repeated
 * `tags` fields (one per chip) and as `newTags`, a comma-separated box that also serves
 * browsers without JavaScript.
 */
export function postFormValues(formData: FormData): PostFormValues {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const tags = [...formData.getAll("tags"), ...text("newTags").split(",")].filter(
    (tag): tag is string => typeof tag === "string",
  );
  return {
    title: text("title"),
    content: text("content"),
    excerpt: text("excerpt"),
    author: text("author"),
    coverImage: text("coverImage"),
    category: text("category"),
    tags: uniqueNonEmptyTags(tags),
    published: formData.get("published") === "on",
  };
}

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
