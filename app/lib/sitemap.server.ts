import { CATEGORIES, categoryPath } from "#domain/categories.ts";
import { postPath } from "./post-card-data.ts";
import { absoluteUrl } from "./site-urls.ts";

/** The protocol's limit per sitemap file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Public pages that are not posts or categories. */
export const STATIC_PAGE_PATHS = ["/", "/blog", "/categories", "/about", "/privacy", "/terms"] as const;

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

function urlEntry(loc: string, lastmod?: string): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>\n`;
}

export function postSitemapCount(publishedPosts: number): number {
  return Math.ceil(publishedPosts / SITEMAP_MAX_URLS);
}

/** The sitemap index: the page sitemap, then one sitemap per 50,000 published posts. */
export function renderSitemapIndex(siteUrl: string, publishedPosts: number): string {
  const files = ["/sitemaps/pages.xml"];
  for (let page = 1; page <= postSitemapCount(publishedPosts); page += 1) files.push(`/sitemaps/posts-${page}.xml`);
  const entries = files.map((file) => `<sitemap><loc>${escapeXml(absoluteUrl(siteUrl, file))}</loc></sitemap>\n`);
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join("")}</sitemapindex>\n`;
}

/** Static pages, and every category that has a published post, with when it last changed. */
export function renderPagesSitemap(
  siteUrl: string,
  categoryUpdates: { category: string; updatedAt: string }[],
): string {
  const updated = new Map(categoryUpdates.map(({ category, updatedAt }) => [category, updatedAt]));
  const entries = [
    ...STATIC_PAGE_PATHS.map((path) => urlEntry(absoluteUrl(siteUrl, path))),
    ...CATEGORIES.filter((category) => updated.has(category)).map((category) =>
      urlEntry(absoluteUrl(siteUrl, categoryPath(category)), updated.get(category)),
    ),
  ];
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
