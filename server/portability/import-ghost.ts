// Reading Ghost's JSON export into the shape import-formats.ts defines.
import type { ImportOptions } from "#domain/portability.ts";
import { postSchema } from "#domain/post.ts";
import {
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

const GHOST_SECTIONS_READ = new Set(["posts", "posts_meta", "tags", "posts_tags", "users", "posts_authors"]);

/** Who a Ghost post was for, when not for everyone (`visibility`); such a post comes in as a draft. */
const GHOST_AUDIENCES: Record<string, string> = {
  members: "members only",
  paid: "paying members only",
  tiers: "members of some tiers only",
};

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

  // Ghost keeps a post's or page's search-engine description apart, in posts_meta.
  const metaDescriptions = new Map(
    rows(data.posts_meta).map((meta) => [text(meta.post_id), text(meta.meta_description).trim()]),
  );

  const posts: ForeignPost[] = [];
  const pages: ForeignPage[] = [];
  for (const post of rows(data.posts)) {
    const id = text(post.id);
    const title = text(post.title).trim();
    const label = title ? `“${title}”` : `Ghost post ${id}`;
    const isPage = post.type === "page" || post.page === true || post.page === 1;
    if (isPage && options.pages === "skip") {
      skipped.push({ item: label, reason: PAGE_SKIPPED_REASON });
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
    const source = {
      live: post.status === "published",
      scheduledAt: post.status === "scheduled" ? publishedAt : undefined,
      hiddenBecause:
        visibility !== "public"
          ? `was for ${audience} in Ghost`
          : post.status === "scheduled" && !publishedAt
            ? "was scheduled in Ghost without a time"
            : undefined,
    };
    if (isPage && options.pages === "pages") {
      pages.push({
        sourceKey: `ghost:post:${id}`,
        label,
        title,
        slug: text(post.slug),
        html,
        description: metaDescriptions.get(id) || text(post.custom_excerpt).trim(),
        ...foreignPageState(label, "Ghost", source),
        createdAt: publishedAt ?? isoDate(post.created_at),
        updatedAt: isoDate(post.updated_at),
        comments: 0,
      });
      continue;
    }
    const state = foreignState(label, source);
    posts.push({
      sourceKey: `ghost:post:${id}`,
      label,
      title,
      slug: text(post.slug),
      html,
      excerpt: text(post.custom_excerpt) || (metaDescriptions.get(id) ?? ""),
      author: authors[0] ?? userNames.get(text(post.author_id)) ?? "",
      coverImage: text(post.feature_image),
      terms,
      categories: [],
      tags: terms,
      ...state,
      commentsClosed: commentsOff,
      createdAt: publishedAt ?? isoDate(post.created_at),
      updatedAt: isoDate(post.updated_at),
      comments: [],
      // Where Ghost says the post was first published; kept when the editor would accept it.
      kept: { canonicalUrl: postSchema.shape.canonicalUrl.safeParse(text(post.canonical_url)).data ?? "" },
    });
  }
  return { format: "ghost", posts, pages, skipped, warnings };
}
