// Reading Ghost and WordPress exports into one shape; what they mean for the blog is decided in portability.ts.
import type { CommentStatus } from "#domain/comment.ts";
import { cleanText } from "#domain/forms.ts";
import { DomainError } from "#domain/errors.ts";
import type { ImportOptions } from "#domain/portability.ts";
import { htmlToText } from "../html.ts";

export interface ForeignComment {
  sourceKey: string;
  author: string;
  /** Plain text: comments here are text, never HTML. */
  content: string;
  createdAt: string | undefined;
  status: CommentStatus;
}

export interface ForeignPost {
  sourceKey: string;
  /** How the report names it: the title, or the source id when there is none. */
  label: string;
  title: string;
  /** The address name the post had there; kept when it is free here. */
  slug: string;
  html: string;
  excerpt: string;
  author: string;
  coverImage: string;
  /** Source category and tag names, in the source's order, for the category map. */
  terms: string[];
  tags: string[];
  /** Public, or (with `publishAt`) public from that time; otherwise a draft. */
  published: boolean;
  publishAt: string | undefined;
  commentsClosed: boolean;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  comments: ForeignComment[];
  /** What the report says about this post if it is created (why it became a draft, what stays as text). */
  notes: string[];
}

export interface ForeignExport {
  format: "ghost" | "wordpress";
  posts: ForeignPost[];
  skipped: { item: string; reason: string }[];
  warnings: string[];
}

function refuse(message: string): never {
  throw new DomainError("IMPORT_REFUSED", message);
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return "";
}

/** A date as ISO text, or undefined when the source has none (or WordPress's 0000-00-00). */
function isoDate(value: unknown, assumeUtc = false): string | undefined {
  const raw = text(value).trim();
  if (!raw || raw.startsWith("0000-00-00")) return undefined;
  const date = new Date(
    assumeUtc && /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(raw) ? `${raw.replace(" ", "T")}Z` : raw,
  );
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function rows(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

const GHOST_SECTIONS_READ = new Set(["posts", "tags", "posts_tags", "users", "posts_authors"]);

/** Who a Ghost post was for, when not for everyone (`visibility`); such a post comes in as a draft. */
const GHOST_AUDIENCES: Record<string, string> = {
  members: "members only",
  paid: "paying members only",
  tiers: "members of some tiers only",
};

/**
 * How a post's status and audience there become its state here: private writing stays a
 * draft, a scheduled post stays scheduled at its time (published, with a publishing time, as
 * the editor schedules), and the report says which posts changed and why.
 */
function foreignState(
  label: string,
  state: { live: boolean; scheduledAt: string | undefined; hiddenBecause: string | undefined },
): Pick<ForeignPost, "published" | "publishAt" | "notes"> {
  if (state.hiddenBecause) {
    return { published: false, publishAt: undefined, notes: [`${label} ${state.hiddenBecause}: imported as a draft`] };
  }
  if (state.scheduledAt !== undefined) return { published: true, publishAt: state.scheduledAt, notes: [] };
  return { published: state.live, publishAt: undefined, notes: [] };
}

/** Ghost's Labs → Export: `{ db: [{ meta, data: { posts, tags, posts_tags, users, posts_authors, … } }] }`. */
export function readGhostExport(document: Json, options: ImportOptions): ForeignExport {
  const database = Array.isArray(document.db) ? document.db[0] : undefined;
  const data = isObject(database) && isObject(database.data) ? database.data : refuse("This Ghost export has no data.");
  const warnings: string[] = [];
  const skipped: ForeignExport["skipped"] = [];
  const ignored = Object.entries(data)
    .filter(([name, value]) => !GHOST_SECTIONS_READ.has(name) && Array.isArray(value) && value.length > 0)
    .map(([name]) => name);
  if (ignored.length > 0) warnings.push(`Ghost data not imported: ${ignored.sort().join(", ")}`);

  // Ghost has no per-post switch for comments, only the site's (Settings → Membership → Commenting).
  const commentsOff = rows(data.settings).some(
    (setting) => setting.key === "comments_enabled" && text(setting.value) === "off",
  );
  if (commentsOff) warnings.push("Comments were off on the Ghost site: its posts are imported with comments closed");

  const tagNames = new Map(rows(data.tags).map((tag) => [text(tag.id), text(tag.name)]));
  const userNames = new Map(rows(data.users).map((user) => [text(user.id), text(user.name)]));
  const tagsOfPost = new Map<string, { name: string; order: number }[]>();
  for (const link of rows(data.posts_tags)) {
    const name = tagNames.get(text(link.tag_id));
    if (!name) continue;
    const list = tagsOfPost.get(text(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? list.length) });
    tagsOfPost.set(text(link.post_id), list);
  }
  const authorsOfPost = new Map<string, { name: string; order: number }[]>();
  for (const link of rows(data.posts_authors)) {
    const name = userNames.get(text(link.author_id));
    if (!name) continue;
    const list = authorsOfPost.get(text(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? list.length) });
    authorsOfPost.set(text(link.post_id), list);
  }

  const posts: ForeignPost[] = [];
  for (const post of rows(data.posts)) {
    const id = text(post.id);
    const title = text(post.title).trim();
    const label = title ? `“${title}”` : `Ghost post ${id}`;
    const isPage = post.type === "page" || post.page === true || post.page === 1;
    if (isPage && options.pages === "skip") {
      skipped.push({
        item: label,
        reason:
          "a page (pages are imported as posts only when asked: --pages posts, or “Import pages as posts” on the Tools page)",
      });
      continue;
    }
    const html = typeof post.html === "string" ? post.html : "";
    if (!html && (post.mobiledoc || post.lexical)) {
      warnings.push(`${label}: the export has no HTML for its mobiledoc/lexical body, so the body is empty`);
    }
    // Ghost's internal tags (#name) steer themes; they are not topics.
    const terms = (tagsOfPost.get(id) ?? [])
      .sort((a, b) => a.order - b.order)
      .map((tag) => tag.name)
      .filter((name) => !name.startsWith("#"));
    const authors = (authorsOfPost.get(id) ?? []).sort((a, b) => a.order - b.order).map((author) => author.name);
    const visibility = text(post.visibility).trim() || "public";
    const audience = GHOST_AUDIENCES[visibility] ?? `a “${visibility}” audience only`;
    const publishedAt = isoDate(post.published_at);
    const state = foreignState(label, {
      live: post.status === "published",
      scheduledAt: post.status === "scheduled" ? publishedAt : undefined,
      hiddenBecause:
        visibility !== "public"
          ? `was for ${audience} in Ghost`
          : post.status === "scheduled" && !publishedAt
            ? "was scheduled in Ghost without a time"
            : undefined,
    });
    posts.push({
      sourceKey: `ghost:post:${id}`,
      label,
      title,
      slug: text(post.slug),
      html,
      excerpt: text(post.custom_excerpt),
      author: authors[0] ?? userNames.get(text(post.author_id)) ?? "",
      coverImage: text(post.feature_image),
      terms,
      tags: terms,
      ...state,
      commentsClosed: commentsOff,
      createdAt: publishedAt ?? isoDate(post.created_at),
      updatedAt: isoDate(post.updated_at),
      comments: [],
    });
  }
  return { format: "ghost", posts, skipped, warnings };
}

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
    isArray: (name) => ["item", "category", "wp:comment", "wp:author"].includes(name),
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
  let pings = 0;
  for (const item of rows(channel.item)) {
    const id = text(item["wp:post_id"]).trim();
    const title = htmlToText(text(item.title)).replace(/\s+/g, " ").trim();
    const type = text(item["wp:post_type"]).trim() || "post";
    const status = text(item["wp:status"]).trim();
    const label = title ? `“${title}”` : `WordPress ${type} ${id}`;
    if (type === "page" && options.pages === "skip") {
      skipped.push({
        item: label,
        reason:
          "a page (pages are imported as posts only when asked: --pages posts, or “Import pages as posts” on the Tools page)",
      });
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
    const tags: string[] = [];
    for (const category of asArray(item.category)) {
      const name = htmlToText(isObject(category) ? text(category["#text"]) : text(category)).trim();
      if (!name) continue;
      terms.push(name);
      if (isObject(category) && category["@domain"] === "post_tag") tags.push(name);
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
      comments.push({
        sourceKey: `wordpress:${site}:comment:${commentId}`,
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
    const state = foreignState(label, {
      live: status === "publish",
      scheduledAt: status === "future" ? createdAt : undefined,
      hiddenBecause: text(item["wp:post_password"])
        ? "was password-protected in WordPress"
        : status === "private"
          ? "was private in WordPress"
          : status === "future" && !createdAt
            ? "was scheduled in WordPress without a date"
            : undefined,
    });
    const shortcodes = shortcodesIn(content);
    if (shortcodes.length > 0) {
      state.notes.push(
        `${label} keeps WordPress shortcodes as text: ${shortcodes.map((name) => `[${name}]`).join(", ")}`,
      );
    }
    posts.push({
      sourceKey: `wordpress:${site}:post:${id}`,
      label,
      title,
      slug: text(item["wp:post_name"]),
      html: addParagraphs(content),
      excerpt: htmlToText(text(item["excerpt:encoded"])).trim(),
      author: authors.get(creator) || creator,
      coverImage: "",
      terms,
      tags,
      ...state,
      commentsClosed: text(item["wp:comment_status"]).trim() === "closed",
      createdAt,
      updatedAt: isoDate(item["wp:post_modified_gmt"], true),
      comments,
    });
  }
  if (pings > 0) warnings.push(`${pings} pingbacks and trackbacks left out`);
  return { format: "wordpress", posts, skipped, warnings };
}

/**
 * An export's JSON with every string cleaned as a form field is (control characters dropped,
 * NUL above all, which PostgreSQL refuses wherever it is stored or looked up).
 */
export function parseExportJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? cleanText(value) : value));
}
