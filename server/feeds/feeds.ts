import { createHash } from "node:crypto";
import { categoryPath } from "#domain/categories.ts";
import { escapeHtml, escapeXml, withoutNonXmlCharacters } from "#domain/escape.ts";
import { absoluteImage } from "#domain/media.ts";
import type { Post } from "#domain/post.ts";
import { DEFAULT_SITE_DESCRIPTION, DEFAULT_SITE_TITLE } from "#domain/site-defaults.ts";
import {
  absoluteUrl,
  FEED_FORMATS,
  type FeedFormat,
  feedPath,
  feedPathUnder,
  postPath,
  resolveUrl,
} from "#domain/site-urls.ts";
import { rewriteHtmlUrls } from "../render/index.ts";

interface FeedSource {
  /** The blog as its owner named it in Settings. */
  site: { siteUrl: string; title: string; description: string };
  /** Newest first, bodies already sanitised. */
  posts: Post[];
  category?: string;
  /** The category's description as its writer wrote it (Admin → Categories); blank says what the feed holds. */
  categoryDescription?: string;
  /** A tag's or an author's feed: its page's path, and its name in the feed's title and description. */
  scope?: FeedScope;
  /** Bytes of this site's own images, by `/media/…` path (a cover's enclosure length). */
  fileSizes?: ReadonlyMap<string, number>;
}

export interface FeedScope {
  path: string;
  title: string;
  /** Completes "Posts …": "tagged css", "by Ada Writer". */
  description: string;
}

interface Cover {
  url: string;
  /** Undefined when the address names no image type this blog knows: such a cover has no enclosure. */
  type: string | undefined;
  /** 0 when unknown (an image elsewhere), as the RSS profile allows. */
  length: number;
}

/** One post as every format writes it: text is text, every address absolute. */
interface Entry {
  url: string;
  title: string;
  excerpt: string;
  contentHtml: string;
  author: string;
  category: string;
  categoryUrl: string;
  tags: string[];
  published: Date;
  updated: Date;
  cover: Cover | undefined;
}

interface Channel {
  home: string;
  title: string;
  name: string;
  description: string;
  updated: Date;
  links: Record<FeedFormat, string>;
  favicon: string;
  entries: Entry[];
}

function coverOf(post: Post, siteUrl: string, fileSizes: ReadonlyMap<string, number>): Cover | undefined {
  const image = absoluteImage(siteUrl, post.coverImage);
  if (!image) return undefined;
  return { url: image.url.href, type: image.type, length: fileSizes.get(post.coverImage) ?? 0 };
}

function readChannel({
  site,
  posts,
  category,
  categoryDescription,
  scope,
  fileSizes = new Map(),
}: FeedSource): Channel {
  const at = (path: string) => absoluteUrl(site.siteUrl, path);
  const name = site.title || DEFAULT_SITE_TITLE;
  const scoped = scope
    ? {
        home: at(scope.path),
        title: `${scope.title} | ${name}`,
        description: `Posts ${scope.description} on ${name}.`,
        link: (format: FeedFormat) => at(feedPathUnder(format, scope.path)),
      }
    : undefined;
  const home = scoped?.home ?? at(category ? categoryPath(category) : "/");
  const link = scoped?.link ?? ((format: FeedFormat) => at(feedPath(format, category)));
  return {
    home,
    name,
    title: scoped?.title ?? (category ? `${category} | ${name}` : name),
    description:
      scoped?.description ??
      (category
        ? categoryDescription || `Posts in the ${category} category of ${name}.`
        : site.description || DEFAULT_SITE_DESCRIPTION),
    // An empty feed is as old as the blog's epoch, so its Last-Modified never moves.
    updated: new Date(posts[0]?.updatedAt ?? 0),
    links: { rss: link("rss"), atom: link("atom"), json: link("json") },
    favicon: at("/favicon.svg"),
    entries: posts.map((post) => {
      const url = at(postPath(post.slug));
      return {
        url,
        title: post.title,
        excerpt: post.excerpt,
        // Readers show a body away from this site: a link or image relative to it would lead nowhere.
        contentHtml: rewriteHtmlUrls(post.contentHtml, (reference) => resolveUrl(site.siteUrl, reference, url)),
        author: post.author,
        category: post.category,
        categoryUrl: at(categoryPath(post.category)),
        tags: post.tags,
        published: new Date(post.createdAt),
        updated: new Date(post.updatedAt),
        cover: coverOf(post, site.siteUrl, fileSizes),
      };
    }),
  };
}

/**
 * HTML as character data, the smaller form for a body (escaping every `<` would add a
 * third to a feed's size); a `]]>` inside it is split across two sections.
 */
function cdata(html: string): string {
  return `<![CDATA[${withoutNonXmlCharacters(html).replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}

type Attributes = Record<string, string | number | undefined>;

/** An element whose attributes and text are escaped here; `children` is XML already written. */
function element(name: string, attributes: Attributes, children?: string): string {
  const written = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join("");
  return children === undefined ? `<${name}${written}/>` : `<${name}${written}>${children}</${name}>`;
}

function textElement(name: string, text: string, attributes: Attributes = {}): string {
  return element(name, attributes, escapeXml(text));
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/**
 * RSS 2.0 as the RSS Best Practices Profile reads it: titles and names are plain text, the
 * description is HTML (so the plain-text excerpt goes out escaped), an author without an
 * email address is `dc:creator`, and an enclosure names its type and length.
 */
function writeRss(channel: Channel): string {
  const items = channel.entries.map((entry) =>
    element(
      "item",
      {},
      [
        textElement("title", entry.title),
        textElement("link", entry.url),
        textElement("guid", entry.url, { isPermaLink: "false" }),
        textElement("pubDate", entry.published.toUTCString()),
        element("description", {}, cdata(escapeHtml(entry.excerpt))),
        element("content:encoded", {}, cdata(entry.contentHtml)),
        textElement("dc:creator", entry.author),
        textElement("category", entry.category, { domain: entry.categoryUrl }),
        ...entry.tags.map((tag) => textElement("category", tag)),
        ...(entry.cover?.type
          ? [element("enclosure", { url: entry.cover.url, length: entry.cover.length, type: entry.cover.type })]
          : []),
      ].join("\n"),
    ),
  );
  const rss = element(
    "rss",
    {
      version: "2.0",
      "xmlns:atom": "http://www.w3.org/2005/Atom",
      "xmlns:content": "http://purl.org/rss/1.0/modules/content/",
      "xmlns:dc": "http://purl.org/dc/elements/1.1/",
    },
    element(
      "channel",
      {},
      [
        "",
        textElement("title", channel.title),
        textElement("link", channel.home),
        textElement("description", channel.description),
        textElement("lastBuildDate", channel.updated.toUTCString()),
        textElement("docs", "https://validator.w3.org/feed/docs/rss2.html"),
        textElement("language", "en"),
        textElement("copyright", `© ${channel.name}`),
        element("atom:link", { href: channel.links.rss, rel: "self", type: FEED_FORMATS.rss.type }),
        ...items,
        "",
      ].join("\n"),
    ),
  );
  return `${XML_DECLARATION}\n${rss}\n`;
}

/** Atom 1.0: title and summary are text (the default type), the body is escaped HTML. */
function writeAtom(channel: Channel): string {
  const entries = channel.entries.map((entry) =>
    element(
      "entry",
      {},
      [
        textElement("title", entry.title),
        textElement("id", entry.url),
        element("link", { href: entry.url }),
        ...(entry.cover?.type
          ? [
              element("link", {
                rel: "enclosure",
                href: entry.cover.url,
                type: entry.cover.type,
                length: entry.cover.length || undefined,
              }),
            ]
          : []),
        textElement("updated", entry.updated.toISOString()),
        textElement("summary", entry.excerpt),
        element("content", { type: "html" }, cdata(entry.contentHtml)),
        element("author", {}, textElement("name", entry.author)),
        element("category", { term: entry.category, label: entry.category }),
        ...entry.tags.map((tag) => element("category", { term: tag, label: tag })),
        textElement("published", entry.published.toISOString()),
      ].join("\n"),
    ),
  );
  const feed = element(
    "feed",
    { xmlns: "http://www.w3.org/2005/Atom", "xml:lang": "en" },
    [
      "",
      textElement("id", channel.home),
      textElement("title", channel.title),
      textElement("updated", channel.updated.toISOString()),
      element("link", { rel: "alternate", href: channel.home }),
      element("link", { rel: "self", href: channel.links.atom }),
      textElement("subtitle", channel.description),
      textElement("icon", channel.favicon),
      textElement("rights", `© ${channel.name}`),
      ...entries,
      "",
    ].join("\n"),
  );
  return `${XML_DECLARATION}\n${feed}\n`;
}

/** JSON Feed 1.1: `summary` is plain text and `content_html` HTML, as the format defines them. */
function writeJsonFeed(channel: Channel): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: channel.title,
    home_page_url: channel.home,
    feed_url: channel.links.json,
    description: channel.description,
    language: "en",
    items: channel.entries.map((entry) => ({
      id: entry.url,
      url: entry.url,
      title: entry.title,
      content_html: entry.contentHtml,
      summary: entry.excerpt,
      ...(entry.cover ? { image: entry.cover.url } : {}),
      date_published: entry.published.toISOString(),
      date_modified: entry.updated.toISOString(),
      authors: [{ name: entry.author }],
      tags: [entry.category, ...entry.tags],
    })),
  });
}

export function renderFeed(format: FeedFormat, source: FeedSource): string {
  const channel = readChannel(source);
  if (format === "rss") return writeRss(channel);
  if (format === "atom") return writeAtom(channel);
  return writeJsonFeed(channel);
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
