// Addresses on this site, shared by pages, feeds and emails (an email is made on the server).
import { categoryPath } from "./categories.ts";

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

/** A post's public address; ids and former slugs redirect here. */
export function postPath(slug: string): string {
  return `/blog/${encodeURIComponent(slug)}`;
}

const POST_PATH = /^\/blog\/([^/]{1,200})\/?$/;

/**
 * postPath read backwards: the address (slug, former slug or id) in a /blog/{address} path,
 * decoded; undefined for any other path, or one whose percent-encoding is broken.
 */
export function postAddressIn(pathname: string): string | undefined {
  const encoded = POST_PATH.exec(pathname)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** A page's public address: top level, beside the site's own routes (domain/page.ts reserves theirs). */
export function pagePath(slug: string): string {
  return `/${encodeURIComponent(slug)}`;
}

/** A tag's page: its key (lower case), so every spelling of a tag shares one address. */
export function tagPath(tag: string): string {
  return `/tag/${encodeURIComponent(tag.toLowerCase())}`;
}

/** An author's page. */
export function authorPath(slug: string): string {
  return `/author/${encodeURIComponent(slug)}`;
}

/** Feed formats the blog serves, each for the whole blog and for every category. */
export const FEED_FORMATS = {
  rss: { file: "rss.xml", type: "application/rss+xml", label: "RSS" },
  atom: { file: "atom.xml", type: "application/atom+xml", label: "Atom" },
  json: { file: "feed.json", type: "application/feed+json", label: "JSON Feed" },
} as const;

export type FeedFormat = keyof typeof FEED_FORMATS;

/** A feed of the page at `path` (a tag's or an author's): `/tag/css/rss.xml`. */
export function feedPathUnder(format: FeedFormat, path: string): string {
  return `${path}/${FEED_FORMATS[format].file}`;
}

/** `/rss.xml` for the blog, `/category/design/rss.xml` for a category. */
export function feedPath(format: FeedFormat, category?: string): string {
  const file = FEED_FORMATS[format].file;
  return category ? `${categoryPath(category)}/${file}` : `/${file}`;
}
