// What Ghost's APIs read that the blog's own screens do not: posts by Ghost's filters, public
// tags and authors. Every public read starts from the publishing rule (selectPublicPosts).
import { sql } from "kysely";
import { selectPublicPosts } from "../../posts/index.ts";
import { selectPublicPages } from "../../pages/index.ts";
import { type Db, toIsoString } from "../../kernel/rows.ts";

export async function findPostIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
  return row?.id;
}

/** A comparison of `published_at` (a published post's publishing time, else its creation). */
export interface TimeComparison {
  op: ">" | ">=" | "<" | "<=";
  at: string;
}

/** The filters the Content API understands, all of them to hold at once. */
export interface PublicPostFilter {
  /** Categories the post is filed under, or else tag keys (lower-cased names) it carries, any of them. */
  tags?: { keys: string[]; categories: string[] };
  /** Names of authors, lower-cased, any of which wrote the post. */
  authors?: string[];
  slugs?: string[];
  ids?: string[];
  /** Ghost's featured posts: this blog has none. */
  featuredOnly?: boolean;
  publishedAt?: TimeComparison[];
}

const publishedAt = sql<string>`coalesce(posts.publish_at, posts.created_at)`;

function filtered(db: Db, now: string, filter: PublicPostFilter) {
  let query = selectPublicPosts(db, now);
  if (filter.featuredOnly) query = query.where(sql<boolean>`1 = 0`);
  if (filter.slugs) query = query.where("posts.slug", "in", filter.slugs.length ? filter.slugs : [""]);
  if (filter.ids) query = query.where("posts.id", "in", filter.ids.length ? filter.ids : [""]);
  if (filter.authors) {
    const names = filter.authors.length ? filter.authors : [""];
    query = query.where((eb) => eb(eb.fn("lower", ["posts.author"]), "in", names));
  }
  const { tags } = filter;
  // A category's slug names the category (each post's primary tag), read on its list index; any
  // other slug a tag, through post_tags' index. One or the other: an OR of both reads every post.
  if (tags && tags.categories.length > 0) query = query.where("posts.category", "in", tags.categories);
  else if (tags) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("post_tags")
          .select("post_tags.post_id")
          .whereRef("post_tags.post_id", "=", "posts.id")
          .where("post_tags.tag_key", "in", tags.keys.length ? tags.keys : [""]),
      ),
    );
  }
  for (const { op, at } of filter.publishedAt ?? []) query = query.where(publishedAt, op, at);
  return query;
}

/**
 * A page of public post ids, newest first (or oldest), and how many match. Without a filter the
 * list index answers it a page at a time (the count is the posts service's counter); a filter
 * narrows the same walk.
 */
export async function listPublicPostIds(
  db: Db,
  now: string,
  filter: PublicPostFilter,
  options: { limit: number; offset: number; oldestFirst: boolean; count: boolean },
): Promise<{ ids: string[]; total: number | undefined }> {
  const direction = options.oldestFirst ? "asc" : "desc";
  const [rows, counted] = await Promise.all([
    filtered(db, now, filter)
      .select("posts.id")
      .orderBy("posts.created_at", direction)
      .orderBy("posts.id", direction)
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    options.count
      ? filtered(db, now, filter)
          .select((eb) => eb.fn.countAll<number | string>().as("total"))
          .executeTakeFirst()
      : undefined,
  ]);
  return { ids: rows.map((row) => row.id), total: counted ? Number(counted.total) : undefined };
}

/** The rendered bodies of these public posts, by id. */
export async function loadPublicBodies(db: Db, now: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await selectPublicPosts(db, now)
    .select(["posts.id", "posts.content_html"])
    .where("posts.id", "in", [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.content_html]));
}

/** A page of the tags public posts carry, by name, with how many public posts carry each. */
export async function listPublicTags(
  db: Db,
  now: string,
  options: { limit: number; offset: number },
): Promise<{ name: string; posts: number }[]> {
  const rows = await selectPublicPosts(db, now)
    .innerJoin("post_tags", "post_tags.post_id", "posts.id")
    .select((eb) => [eb.fn.min("post_tags.tag").as("name"), eb.fn.countAll<number | string>().as("posts")])
    .groupBy("post_tags.tag_key")
    .orderBy("post_tags.tag_key")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  return rows.map((row) => ({ name: String(row.name), posts: Number(row.posts) }));
}

/** A page of the names public posts are signed with, with how many each signed. */
export async function listPublicAuthors(
  db: Db,
  now: string,
  options: { limit: number; offset: number },
): Promise<{ name: string; posts: number }[]> {
  const rows = await selectPublicPosts(db, now)
    .select(["posts.author", (eb) => eb.fn.countAll<number | string>().as("posts")])
    .groupBy("posts.author")
    .orderBy("posts.author")
    .limit(options.limit)
    .offset(options.offset)
    .execute();
  return rows.map((row) => ({ name: row.author, posts: Number(row.posts) }));
}

export interface PublicPageRow {
  id: string;
  slug: string;
  title: string;
  description: string;
  contentHtml: string | undefined;
  createdAt: string;
  updatedAt: string;
}

/** A page of the published pages by slug, or those with these slugs or ids; bodies only when asked. */
export async function listPublicPages(
  db: Db,
  options: { limit: number; offset: number; withBody: boolean; slugs?: string[]; ids?: string[] },
): Promise<{ rows: PublicPageRow[]; total: number }> {
  let query = selectPublicPages(db);
  if (options.slugs) query = query.where("pages.slug", "in", options.slugs.length ? options.slugs : [""]);
  if (options.ids) query = query.where("pages.id", "in", options.ids.length ? options.ids : [""]);
  const [rows, counted] = await Promise.all([
    query
      .select(["pages.id", "pages.slug", "pages.title", "pages.description", "pages.created_at", "pages.updated_at"])
      .$if(options.withBody, (q) => q.select("pages.content_html"))
      .orderBy("pages.slug")
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      contentHtml: "content_html" in row ? String(row.content_html) : undefined,
      createdAt: toIsoString(row.created_at),
      updatedAt: toIsoString(row.updated_at),
    })),
    total: Number(counted.total),
  };
}
