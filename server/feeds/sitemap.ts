import { CATEGORIES, categoryPath } from "#domain/categories.ts";
import { escapeXml } from "#domain/escape.ts";
import { absoluteUrl, pagePath, postPath } from "#domain/site-urls.ts";

/** The protocol's limit per sitemap file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The site's own public pages: not posts, categories or the writer's pages (About, Privacy and Terms are those). */
export const STATIC_PAGE_PATHS = ["/", "/blog", "/categories"] as const;

/** An address of a published page and when it last changed (services.pages.listSitemapPages). */
export interface PageAddress {
  slug: string;
  updatedAt: string;
}

/** Published pages by slug after `afterSlug`, at most `limit` of them. */
export type ListPageAddresses = (afterSlug: string, limit: number) => Promise<PageAddress[]>;

function urlEntry(loc: string, lastmod?: string): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>\n`;
}

export function postSitemapCount(publishedPosts: number): number {
  return Math.ceil(publishedPosts / SITEMAP_MAX_URLS);
}

/** The page sitemaps' files: pages.xml, then pages-2.xml, pages-3.xml… */
export function pageSitemapFile(file: number): string {
  return file === 1 ? "pages.xml" : `pages-${file}.xml`;
}

/** Which page sitemap a file name is (1 for pages.xml), or undefined. */
export function pageSitemapNumber(name: string): number | undefined {
  if (name === "pages.xml") return 1;
  const file = Number(/^pages-([1-9]\d{0,6})\.xml$/.exec(name)?.[1]);
  return file >= 2 ? file : undefined;
}

/**
 * The published pages of each page sitemap in turn, read by slug. The first file keeps room for
 * the site's own pages and every category, used or not, so its boundary never moves when a
 * category gets its first post; a file after it is listed only when a page is left for it.
 */
async function* pageSitemapBatches(
  listPages: ListPageAddresses,
  maxUrls: number = SITEMAP_MAX_URLS,
): AsyncGenerator<PageAddress[]> {
  let afterSlug = "";
  for (let file = 1; ; file += 1) {
    const room = file === 1 ? maxUrls - STATIC_PAGE_PATHS.length - CATEGORIES.length : maxUrls;
    const batch = await listPages(afterSlug, room);
    if (file > 1 && batch.length === 0) return;
    yield batch;
    if (batch.length < room) return;
    afterSlug = batch.at(-1)!.slug;
  }
}

/** How many page sitemaps there are. A blog has a handful of pages: one query. */
export async function countPageSitemaps(listPages: ListPageAddresses, maxUrls?: number): Promise<number> {
  let count = 0;
  for await (const _batch of pageSitemapBatches(listPages, maxUrls)) count += 1;
  return count;
}

/** The pages of page sitemap `file` (1 is pages.xml), or undefined past the last. */
export async function readPageSitemap(
  listPages: ListPageAddresses,
  file: number,
  maxUrls?: number,
): Promise<PageAddress[] | undefined> {
  let current = 0;
  for await (const batch of pageSitemapBatches(listPages, maxUrls)) {
    current += 1;
    if (current === file) return batch;
  }
  return undefined;
}

/**
 * The sitemap index: the page sitemaps, the tags' and authors' when they list anything
 * (`listFiles`, TAGS_SITEMAP and AUTHORS_SITEMAP: an empty urlset breaks the schema), then one
 * sitemap per 50,000 published posts.
 */
export function renderSitemapIndex(
  siteUrl: string,
  publishedPosts: number,
  pageSitemaps = 1,
  listFiles: readonly string[] = [],
): string {
  const files: string[] = [];
  for (let page = 1; page <= pageSitemaps; page += 1) files.push(`/sitemaps/${pageSitemapFile(page)}`);
  for (const file of listFiles) files.push(`/sitemaps/${file}`);
  for (let page = 1; page <= postSitemapCount(publishedPosts); page += 1) files.push(`/sitemaps/posts-${page}.xml`);
  const entries = files.map((file) => `<sitemap><loc>${escapeXml(absoluteUrl(siteUrl, file))}</loc></sitemap>\n`);
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join("")}</sitemapindex>\n`;
}

/**
 * A page sitemap: published pages with when each last changed; the first file also holds the
 * site's own pages and every category that has a published post (`categoryUpdates`, null after it).
 */
export function renderPagesSitemap(
  siteUrl: string,
  pages: PageAddress[],
  categoryUpdates: { category: string; updatedAt: string }[] | null,
): string {
  const updated = new Map((categoryUpdates ?? []).map(({ category, updatedAt }) => [category, updatedAt]));
  const entries = [
    ...(categoryUpdates ? STATIC_PAGE_PATHS.map((path) => urlEntry(absoluteUrl(siteUrl, path))) : []),
    ...pages.map(({ slug, updatedAt }) => urlEntry(absoluteUrl(siteUrl, pagePath(slug)), updatedAt)),
    ...[...updated].map(([category, updatedAt]) => urlEntry(absoluteUrl(siteUrl, categoryPath(category)), updatedAt)),
  ];
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n${entries.join("")}</urlset>\n`;
}

/** Every tag of a public post, in one file: a blog's tags are far fewer than SITEMAP_MAX_URLS. */
export const TAGS_SITEMAP = "tags.xml";
/** Every author with a public post. */
export const AUTHORS_SITEMAP = "authors.xml";

/** A sitemap of these paths on the site, without `lastmod`: a tag's or an author's page changes with any of its posts. */
export function renderPathsSitemap(siteUrl: string, paths: readonly string[]): string {
  const entries = paths.map((path) => urlEntry(absoluteUrl(siteUrl, path)));
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n${entries.join("")}</urlset>\n`;
}

/** A posts sitemap, written a batch of addresses at a time, so no more than one batch is ever held. */
export function streamPostsSitemap(
  siteUrl: string,
  batches: AsyncIterable<{ slug: string; updatedAt: string }[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // Every post URL shares this prefix; building each with new URL() would dominate the time.
  const postUrlPrefix = absoluteUrl(siteUrl, postPath("x")).slice(0, -1);
  async function* chunks() {
    yield `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n`;
    for await (const batch of batches) {
      yield batch.map(({ slug, updatedAt }) => urlEntry(postUrlPrefix + encodeURIComponent(slug), updatedAt)).join("");
    }
    yield "</urlset>\n";
  }
  const iterator = chunks();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}
