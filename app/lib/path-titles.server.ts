import { postAddressIn } from "#domain/site-urls.ts";
import type { Services } from "#server/composition.ts";

/** A page's path segment as the slug it encodes; undefined when empty or not valid percent-encoding. */
function slugOf(segment: string | undefined): string | undefined {
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * What a writer calls the pages behind these paths: a post's or a page's title, "Home" for the
 * home page; a path that names neither is left out, and shows as itself. Two statements, one per
 * kind, for a page of Analytics' paths.
 */
export async function titlesOfPaths(
  services: Pick<Services, "posts" | "pages">,
  paths: readonly string[],
): Promise<Record<string, string>> {
  const postSlugs = new Map<string, string>();
  const pageSlugs = new Map<string, string>();
  const titles: Record<string, string> = {};
  for (const path of paths) {
    if (path === "/") titles[path] = "Home";
    const segments = path.split("/").slice(1);
    const post = postAddressIn(path);
    // pagePath (domain/site-urls.ts) read backwards.
    if (post) postSlugs.set(path, post);
    else if (segments.length === 1) {
      const page = slugOf(segments[0]);
      if (page) pageSlugs.set(path, page);
    }
  }
  const [posts, pages] = await Promise.all([
    postSlugs.size ? services.posts.titlesBySlug([...postSlugs.values()]) : new Map<string, string>(),
    pageSlugs.size ? services.pages.titlesBySlug([...pageSlugs.values()]) : new Map<string, string>(),
  ]);
  for (const [path, slug] of postSlugs) if (posts.has(slug)) titles[path] = posts.get(slug)!;
  for (const [path, slug] of pageSlugs) if (pages.has(slug)) titles[path] = pages.get(slug)!;
  return titles;
}
