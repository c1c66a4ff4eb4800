// Reading a WordPress export (WXR) into the shape import-formats.ts defines.
import type { CommentStatus } from "#domain/comment.ts";
import { cleanText } from "#domain/forms.ts";
import type { ImportOptions } from "#domain/portability.ts";
import { htmlToText } from "../kernel/html.ts";
import {
  type ForeignComment,
  type ForeignExport,
  type ForeignPage,
  foreignPageState,
  type ForeignPost,
  foreignState,
  isObject,
  isoDate,
  type Json,
  PAGE_SKIPPED_REASON,
  rows,
  text,
} from "./import-formats.ts";
import { refuse } from "./import-report.ts";

const WORDPRESS_STATUS: Record<string, CommentStatus | undefined> = { "1": "approved", "0": "pending", spam: "spam" };

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** WordPress leaves paragraphs as blank lines (its editor adds `<p>` on display); we store HTML. */
function addParagraphs(html: string): string {
  if (/<(p|div|h[1-6]|ul|ol|pre|blockquote|figure|table)\b/i.test(html)) return html;
  return html
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, "<br>")}</p>`)
    .join("\n");
}

/**
 * Shortcodes of WordPress and of Jetpack (which WordPress.com exports carry): WordPress expands
 * them when it shows a post, so here they would stay as text in brackets.
 */
const WORDPRESS_SHORTCODES = new RegExp(
  String.raw`\[\/?(${[
    "archives",
    "audio",
    "caption",
    "code",
    "contact-form",
    "embed",
    "gallery",
    "googlemaps",
    "instagram",
    "latex",
    "playlist",
    "polldaddy",
    "soundcloud",
    "sourcecode",
    "tweet",
    "video",
    "vimeo",
    "wp_caption",
    "youtube",
  ].join("|")})(?=[\s\]/])`,
  "g",
);

function shortcodesIn(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(WORDPRESS_SHORTCODES), (match) => match[1]!))].sort();
}

/**
 * The prolog before the root element: where a DOCTYPE, and any entity it declares, must be.
 * A declared entity is how XML reads other files (`SYSTEM "file:///…"`) or multiplies itself
 * into gigabytes; WordPress never writes one, so such a file is refused before it is parsed.
 */
function declaresEntities(xml: string): boolean {
  const rootStart = xml.search(/<[A-Za-z_]/);
  return /<!ENTITY/i.test(rootStart === -1 ? xml : xml.slice(0, rootStart));
}

/**
 * The search-engine description an SEO plugin kept for the item (Yoast SEO, or All in One SEO),
 * which WordPress exports as post meta.
 */
function metaDescription(item: Json): string {
  const meta = rows(item["wp:postmeta"]).find((row) =>
    ["_yoast_wpseo_metadesc", "_aioseo_description"].includes(text(row["wp:meta_key"]).trim()),
  );
  return meta ? htmlToText(text(meta["wp:meta_value"])).replace(/\s+/g, " ").trim() : "";
}

/** A WordPress WXR file: RSS 2.0 with the `wp:`, `content:`, `excerpt:` and `dc:` namespaces. */
export async function readWordPressExport(xml: string, options: ImportOptions): Promise<ForeignExport> {
  if (declaresEntities(xml)) {
    refuse(
      "This XML file declares entities (<!ENTITY …> in its DOCTYPE), which a WordPress export never does, so it was not read. Remove the DOCTYPE and import it again.",
    );
  }
  // Imported on first use, like every library only rare admin tasks need (docs/conventions.md).
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    refuse(`The file is not well-formed XML (line ${validation.err.line}: ${validation.err.msg}). Was it cut short?`);
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    parseTagValue: false,
    trimValues: false,
    // Every text an export carries goes through cleanText, like a form field: a NUL is refused by PostgreSQL.
    tagValueProcessor: (_name, value) => cleanText(value),
    attributeValueProcessor: (_name, value) => cleanText(value),
    isArray: (name) => ["item", "category", "wp:comment", "wp:author", "wp:postmeta"].includes(name),
  });
  let document: Json;
  try {
    document = parser.parse(xml) as Json;
  } catch (error) {
    refuse(`The file is not an XML file this blog can read (${(error as Error).message}).`);
  }
  const channel = isObject(document.rss) && isObject(document.rss.channel) ? document.rss.channel : undefined;
  if (!channel || !("wp:wxr_version" in channel)) refuse("This XML file is not a WordPress export (WXR).");

  const site = text(channel["wp:base_blog_url"] ?? channel["wp:base_site_url"] ?? channel.link).trim();
  const authors = new Map(
    rows(channel["wp:author"]).map((author) => [
      text(author["wp:author_login"]).trim(),
      text(author["wp:author_display_name"]).trim(),
    ]),
  );
  const warnings: string[] = [];
  const skipped: ForeignExport["skipped"] = [];
  const posts: ForeignPost[] = [];
  const pages: ForeignPage[] = [];
  let pings = 0;
  for (const item of rows(channel.item)) {
    const id = text(item["wp:post_id"]).trim();
    const title = htmlToText(text(item.title)).replace(/\s+/g, " ").trim();
    const type = text(item["wp:post_type"]).trim() || "post";
    const status = text(item["wp:status"]).trim();
    const label = title ? `“${title}”` : `WordPress ${type} ${id}`;
    if (type === "page" && options.pages === "skip") {
      skipped.push({ item: label, reason: PAGE_SKIPPED_REASON });
      continue;
    }
    if (type !== "post" && type !== "page") {
      skipped.push({ item: label, reason: `a WordPress ${type}, not a post` });
      continue;
    }
    if (status === "trash") {
      skipped.push({ item: label, reason: "in WordPress's trash" });
      continue;
    }
    const terms: string[] = [];
    const categories: string[] = [];
    const tags: string[] = [];
    for (const category of asArray(item.category)) {
      const name = htmlToText(isObject(category) ? text(category["#text"]) : text(category)).trim();
      if (!name) continue;
      terms.push(name);
      if (isObject(category) && category["@domain"] === "post_tag") tags.push(name);
      // "Uncategorized" is WordPress's name for none: such a post goes to the default category.
      else if (isObject(category) && category["@domain"] === "category" && category["@nicename"] !== "uncategorized") {
        categories.push(name);
      }
    }
    const comments: ForeignComment[] = [];
    for (const comment of rows(item["wp:comment"])) {
      const commentId = text(comment["wp:comment_id"]).trim();
      const kind = text(comment["wp:comment_type"]).trim();
      if (kind === "pingback" || kind === "trackback") {
        pings += 1;
        continue;
      }
      const commentStatus = WORDPRESS_STATUS[text(comment["wp:comment_approved"]).trim()];
      if (!commentStatus) {
        skipped.push({ item: `comment ${commentId} on ${label}`, reason: "in WordPress's trash" });
        continue;
      }
      const parentId = text(comment["wp:comment_parent"]).trim();
      comments.push({
        sourceKey: `wordpress:${site}:comment:${commentId}`,
        parentKey: parentId === "" || parentId === "0" ? undefined : `wordpress:${site}:comment:${parentId}`,
        author: htmlToText(text(comment["wp:comment_author"])).trim(),
        content: htmlToText(text(comment["wp:comment_content"]).replace(/<br\s*\/?>|<\/p>/gi, "\n")).trim(),
        createdAt: isoDate(comment["wp:comment_date_gmt"], true) ?? isoDate(comment["wp:comment_date"], true),
        status: commentStatus,
      });
    }
    const creator = text(item["dc:creator"]).trim();
    const content = text(item["content:encoded"]);
    const createdAt =
      isoDate(item["wp:post_date_gmt"], true) ?? isoDate(item["wp:post_date"], true) ?? isoDate(item.pubDate);
    const source = {
      live: status === "publish",
      scheduledAt: status === "future" ? createdAt : undefined,
      hiddenBecause: text(item["wp:post_password"])
        ? "was password-protected in WordPress"
        : status === "private"
          ? "was private in WordPress"
          : status === "future" && !createdAt
            ? "was scheduled in WordPress without a date"
            : undefined,
    };
    const shortcodes = shortcodesIn(content);
    const shortcodeNotes =
      shortcodes.length > 0
        ? [`${label} keeps WordPress shortcodes as text: ${shortcodes.map((name) => `[${name}]`).join(", ")}`]
        : [];
    const excerpt = htmlToText(text(item["excerpt:encoded"])).trim();
    if (type === "page" && options.pages === "pages") {
      const state = foreignPageState(label, "WordPress", source);
      pages.push({
        sourceKey: `wordpress:${site}:post:${id}`,
        label,
        title,
        slug: text(item["wp:post_name"]),
        html: addParagraphs(content),
        description: metaDescription(item) || excerpt,
        published: state.published,
        notes: [...state.notes, ...shortcodeNotes],
        createdAt,
        updatedAt: isoDate(item["wp:post_modified_gmt"], true),
        comments: comments.length,
      });
      continue;
    }
    const state = foreignState(label, source);
    state.notes.push(...shortcodeNotes);
    posts.push({
      sourceKey: `wordpress:${site}:post:${id}`,
      label,
      title,
      slug: text(item["wp:post_name"]),
      html: addParagraphs(content),
      excerpt,
      author: authors.get(creator) || creator,
      coverImage: "",
      terms,
      categories,
      tags,
      ...state,
      commentsClosed: text(item["wp:comment_status"]).trim() === "closed",
      createdAt,
      updatedAt: isoDate(item["wp:post_modified_gmt"], true),
      comments,
    });
  }
  if (pings > 0) warnings.push(`${pings} pingbacks and trackbacks left out`);
  return { format: "wordpress", posts, pages, skipped, warnings };
}
