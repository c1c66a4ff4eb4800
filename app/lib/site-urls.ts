import { absoluteUrl, FEED_FORMATS, type FeedFormat, feedPath, resolveUrl } from "#domain/site-urls.ts";

export { absoluteUrl, FEED_FORMATS, type FeedFormat, feedPath, resolveUrl };

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
