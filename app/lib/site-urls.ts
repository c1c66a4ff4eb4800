import { categoryPath } from "#domain/categories.ts";
import { absoluteUrl, resolveUrl } from "#domain/site-urls.ts";

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

export { absoluteUrl, resolveUrl };

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
