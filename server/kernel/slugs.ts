import slugify from "@sindresorhus/slugify";
import { SLUG_MAX_LENGTH } from "#domain/post.ts";

/** What a title made only of symbols becomes. */
const FALLBACK_SLUG = "post";

/**
 * A URL slug: lower case, ASCII-folded, words joined by hyphens, cut at a word boundary.
 * `decamelize` is off so "TypeScript" stays one word.
 */
export function toSlug(text: string): string {
  const slug = slugify(text, { decamelize: false });
  if (slug.length <= SLUG_MAX_LENGTH) return slug;
  const cut = slug.slice(0, SLUG_MAX_LENGTH + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : cut.slice(0, SLUG_MAX_LENGTH)).replace(/-+$/, "");
}

/** The slug a title gives when the writer names none. */
export function slugFromTitle(title: string): string {
  return toSlug(title) || FALLBACK_SLUG;
}

/**
 * The first of `base`, `base-2`, `base-3`… that `isTaken` refuses, keeping the suffix
 * inside the length limit.
 */
export async function firstFreeSlug(base: string, isTaken: (slug: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}

/** The slug an author's name gives (an author page's address, /author/{slug}) when the writer names none. */
export function slugFromName(name: string): string {
  return toSlug(name) || "author";
}
