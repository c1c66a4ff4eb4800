import { createHash } from "node:crypto";
import { Feed, type Item } from "feed";
import { categoryPath } from "#domain/categories.ts";
import type { Post } from "#domain/post.ts";
import { SITE_DESCRIPTION, SITE_NAME } from "./meta.ts";
import { postPath } from "./post-card-data.ts";
import { absoluteUrl, FEED_FORMATS, type FeedFormat, feedPath } from "./site-urls.ts";

interface FeedSource {
  /** The blog as its owner named it in Settings. */
  site: { siteUrl: string; title: string; description: string };
  /** Newest first, bodies already sanitised. */
  posts: Post[];
  category?: string;
}

const JSON_FEED_1_1 = "https://jsonfeed.org/version/1.1";

function buildFeed({ site, posts, category }: FeedSource): Feed {
  const at = (path: string) => absoluteUrl(site.siteUrl, path);
  const home = at(category ? categoryPath(category) : "/");
  const name = site.title || SITE_NAME;
  const feed = new Feed({
    id: home,
    title: category ? `${category} | ${name}` : name,
    description: category ? `Posts in the ${category} category of ${name}.` : site.description || SITE_DESCRIPTION,
    link: home,
    language: "en",
    favicon: at("/favicon.svg"),
    copyright: `© ${name}`,
    generator: false,
    // An empty feed is as old as the blog's epoch, so its Last-Modified never moves.
    updated: new Date(posts[0]?.updatedAt ?? 0),
    feedLinks: {
      rss: at(feedPath("rss", category)),
      atom: at(feedPath("atom", category)),
      json: at(feedPath("json", category)),
    },
  });
  for (const post of posts) {
    const link = at(postPath(post.slug));
    const item: Item = {
      title: post.title,
      id: link,
      link,
      description: post.excerpt,
      content: post.contentHtml,
      date: new Date(post.updatedAt),
      published: new Date(post.createdAt),
      author: [{ name: post.author }],
      image: post.coverImage,
      category: [
        { name: post.category, term: post.category, domain: at(categoryPath(post.category)) },
        ...post.tags.map((tag) => ({ name: tag, term: tag })),
      ],
    };
    feed.addItem(item);
  }
  return feed;
}

/**
 * The `feed` package writes JSON Feed 1 (one `author`); 1.1 replaces it with `authors`
 * and adds `language`, which is all that differs for this blog's items.
 */
function toJsonFeed11(json1: string): string {
  const { author: _author, ...feed } = JSON.parse(json1) as Record<string, unknown> & {
    items: (Record<string, unknown> & { author?: unknown })[];
  };
  return JSON.stringify({
    ...feed,
    version: JSON_FEED_1_1,
    language: "en",
    items: feed.items.map(({ author, ...item }) => ({ ...item, ...(author ? { authors: [author] } : {}) })),
  });
}

export function renderFeed(format: FeedFormat, source: FeedSource): string {
  const feed = buildFeed(source);
  if (format === "rss") return feed.rss2();
  if (format === "atom") return feed.atom1();
  return toJsonFeed11(feed.json1());
}

/**
 * A response that a reader polling with `If-None-Match` or `If-Modified-Since` gets as a
 * 304 while nothing changed. The ETag hashes the body, so unpublishing or deleting a post
 * changes it even when no remaining post is newer.
 */
export function cacheableResponse(
  request: Request,
  body: string,
  options: { contentType: string; lastModified: Date },
): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  // HTTP dates have whole seconds.
  const lastModified = new Date(Math.floor(options.lastModified.getTime() / 1000) * 1000);
  const headers = new Headers({
    "Content-Type": options.contentType,
    ETag: etag,
    "Last-Modified": lastModified.toUTCString(),
    "Cache-Control": "public, max-age=300",
  });
  const ifNoneMatch = request.headers.get("If-None-Match");
  const ifModifiedSince = Date.parse(request.headers.get("If-Modified-Since") ?? "");
  const notModified =
    ifNoneMatch !== null
      ? ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")
      : !Number.isNaN(ifModifiedSince) && lastModified.getTime() <= ifModifiedSince;
  return notModified ? new Response(null, { status: 304, headers }) : new Response(body, { headers });
}

export function feedContentType(format: FeedFormat): string {
  return `${FEED_FORMATS[format].type}; charset=utf-8`;
}
