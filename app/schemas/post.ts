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
