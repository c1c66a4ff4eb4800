// How Ghost's tags meet this blog's category and tags, in one place. A Ghost post has tags, the
// first its primary tag; a post here has one category and free tags. Going in, the first tag
// that names a category becomes the category and the others stay tags; going out, the category
// is the primary tag, followed by the post's tags, so what an app reads back it can send again.
import { categoryPath } from "#domain/categories.ts";
import { tagPath } from "#domain/site-urls.ts";
import { toSlug } from "../kernel/slugs.ts";

/** A tag as Ghost's clients send it: a name, or an object with a name or a slug. */
export type GhostTagInput = string | { name?: string | null; slug?: string | null };

function tagName(tag: GhostTagInput): string {
  if (typeof tag === "string") return tag.trim();
  return (tag.name ?? tag.slug ?? "").trim();
}

/** The writer's category (Admin → Categories, in their order) a tag name or slug names, if any. */
function categoryNamed(name: string, categories: readonly string[]): string | undefined {
  const folded = toSlug(name);
  return categories.find((category) => toSlug(category) === folded);
}

/**
 * Ghost tags as a category and tags; `current` is kept when the app sent no tags at all. A post
 * whose tags name no category goes to the writer's first category, as the editor offers it first.
 */
export function categoryAndTagsFromGhost(
  tags: readonly GhostTagInput[] | undefined,
  categories: readonly string[],
  current?: { category: string; tags: string[] },
): { category: string; tags: string[] } {
  const fallback = current?.category ?? categories[0] ?? "";
  if (tags === undefined) return { category: fallback, tags: current?.tags ?? [] };
  const names = tags.map(tagName).filter((name) => name !== "");
  const categoryIndex = names.findIndex((name) => categoryNamed(name, categories) !== undefined);
  if (categoryIndex === -1) return { category: fallback, tags: names };
  return {
    category: categoryNamed(names[categoryIndex]!, categories)!,
    tags: names.filter((_, index) => index !== categoryIndex),
  };
}

export interface GhostTagName {
  name: string;
  slug: string;
  /** Where readers find it: the category's page, or the tag's. */
  path: string;
}

/** A post's category and tags as Ghost tags, the category first (its primary tag). */
export function ghostTagsOf(post: { category: string; tags: readonly string[] }): GhostTagName[] {
  const seen = new Set<string>();
  return [post.category, ...post.tags].flatMap((name, index) => {
    const tag = ghostTagFor(name, index === 0);
    if (tag.slug === "" || seen.has(tag.slug)) return [];
    seen.add(tag.slug);
    return [tag];
  });
}

/** A category or a tag as a Ghost tag, at its page. */
export function ghostTagFor(name: string, isCategory: boolean): GhostTagName {
  const path = isCategory ? categoryPath(name) : tagPath(name);
  return { name, slug: toSlug(name), path };
}

/**
 * The stored tag keys (lower-cased names) a Ghost tag slug can stand for: the slug itself, and
 * with its hyphens as spaces ("web-design" for "Web design"). A name with other punctuation is
 * found by its category or its exact key only.
 */
export function tagKeysForSlug(slug: string): string[] {
  const lower = slug.toLowerCase();
  return [...new Set([lower, lower.replace(/-/g, " ")])];
}

/** The category a Ghost tag slug names, if any. */
export function categoryForSlug(slug: string, categories: readonly string[]): string | undefined {
  return categoryNamed(slug, categories);
}
