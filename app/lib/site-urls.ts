import { categoryPath } from "#domain/categories.ts";

/** Feed formats the blog serves, each for the whole blog and for every category. */
export const FEED_FORMATS = {
  rss: { file: "rss.xml", type: "application/rss+xml", label: "RSS" },
  atom: { file: "atom.xml", type: "application/atom+xml", label: "Atom" },
  json: { file: "feed.json", type: "application/feed+json", label: "JSON Feed" },
} as const;

export type FeedFormat = keyof typeof FEED_FORMATS;

/** `/rss.xml` for the blog, `/category/design/rss.xml` for a category. */
export function feedPath(format: FeedFormat, category?: string): string {
  const file = FEED_FORMATS[format].file;
  return category ? `${categoryPath(category)}/${file}` : `/${file}`;
}

/** An absolute URL on this site, from SITE_URL (which may carry a path prefix). */
export function absoluteUrl(siteUrl: string, path: string): string {
  // `./` keeps a path on the site: "/javascript:x" stays a path, never becomes a scheme.
  const relative = path.startsWith("/") ? `.${path}` : path;
  return new URL(relative, siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`).href;
}

/**
 * An address as a post gives it (its cover, a link or an image in its body), made absolute:
 * a path from the root is on SITE_URL, an absolute address stays as written, anything else
 * is relative to `base`, the post's own address. Undefined for what is no address at all,
 * which a feed then leaves out.
 */
export function resolveUrl(siteUrl: string, reference: string, base = absoluteUrl(siteUrl, "/")): string | undefined {
  const trimmed = reference.trim();
  if (trimmed.startsWith("/")) return absoluteUrl(siteUrl, trimmed);
  if (SCHEME.test(trimmed)) return URL.canParse(trimmed) ? trimmed : undefined;
  return URL.parse(trimmed, base)?.href;
}

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * The canonical address of a page: its path on SITE_URL, keeping only the `page` query
 * parameter, so filters and views share one canonical page while each page of a list is its own.
 */
export function canonicalUrl(siteUrl: string, location: { pathname: string; search: string }): string {
  const url = new URL(absoluteUrl(siteUrl, location.pathname));
  const page = new URLSearchParams(location.search).get("page");
  if (page) url.searchParams.set("page", page);
  return url.href;
}
