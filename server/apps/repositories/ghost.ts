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
 * A page of public post ids, newest first (or oldest), and whether another page follows: one
 * row past the page is read instead of counting every match, so a filtered page costs its own
 * size (the list index, or a tag's post_tags index, walked from the offset).
 */
export async function listPublicPostIds(
  db: Db,
  now: string,
  filter: PublicPostFilter,
  options: { limit: number; offset: number; oldestFirst: boolean },
): Promise<{ ids: string[]; more: boolean }> {
  const direction = options.oldestFirst ? "asc" : "desc";
  const rows = await filtered(db, now, filter)
    .select("posts.id")
    .orderBy("posts.created_at", direction)
    .orderBy("posts.id", direction)
    .limit(options.limit + 1)
    .offset(options.offset)
    .execute();
  return { ids: rows.slice(0, options.limit).map((row) => row.id), more: rows.length > options.limit };
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

/** A page of distinct names, walked in order one index seek at a time, keeping those with a public post. */
export interface DistinctWalk {
  /** Names passed over before the page (its offset). */
  skip: number;
  /** The page's size; one more is read, to tell whether another page follows. */
  take: number;
}

/**
 * Walks distinct keys in index order by seeks (`> last`, limit 1), each checked against the
 * publishing rule with a `limit 1`: a page costs about (offset + size + 1) × 2 seeks, however many
 * posts there are. Grouping every public post, as before, cost a read of all of them.
 */
async function walkDistinct(
  walk: DistinctWalk,
  next: (after: string | undefined) => Promise<{ key: string; name: string } | undefined>,
  isPublic: (key: string) => Promise<boolean>,
): Promise<{ found: { key: string; name: string }[]; more: boolean }> {
  const found: { key: string; name: string }[] = [];
  let after: string | undefined;
  for (;;) {
    if (found.length > walk.skip + walk.take) break;
    const row = await next(after);
    if (!row) break;
    after = row.key;
    if (await isPublic(row.key)) found.push(row);
  }
  return { found: found.slice(walk.skip, walk.skip + walk.take), more: found.length > walk.skip + walk.take };
}

/** A page of the tags public posts carry, by key (post_tags' tag_key index), as first spelled. */
export async function listPublicTags(db: Db, now: string, walk: DistinctWalk) {
  return walkDistinct(
    walk,
    async (after) => {
      const row = await db
        .selectFrom("post_tags")
        .select(["tag_key", "tag"])
        .$if(after !== undefined, (query) => query.where("tag_key", ">", after!))
        .orderBy("tag_key")
        .orderBy("post_id")
        .limit(1)
        .executeTakeFirst();
      return row ? { key: row.tag_key, name: row.tag } : undefined;
    },
    async (key) =>
      (await selectPublicPosts(db, now)
        .innerJoin("post_tags", "post_tags.post_id", "posts.id")
        .select("posts.id")
        .where("post_tags.tag_key", "=", key)
        .limit(1)
        .executeTakeFirst()) !== undefined,
  );
}

/**
 * Published posts whose time has not come: they are in the maintained counters (migration 0037)
 * but not yet public. A range of posts_publish_at, as long as the blog's schedule: the `+` keeps
 * SQLite off posts_published_id, which walked every published post (240 ms at 100,000).
 */
async function listScheduledPosts(db: Db, now: string) {
  return db
    .selectFrom("posts")
    .select(["id", "author"])
    .where("publish_at", ">", now)
    .where(sql<number>`+${sql.ref("posts.published")}`, "=", 1)
    .execute();
}

/** Counters less the scheduled posts among them; only names with public posts are kept. */
function publicCounts(counted: { name: string; posts: number | string }[], scheduled: string[]) {
  const counts = new Map(counted.map((row) => [row.name, Number(row.posts)]));
  for (const name of scheduled) counts.set(name, (counts.get(name) ?? 0) - 1);
  return new Map([...counts].filter(([, posts]) => posts > 0));
}

/**
 * How many public posts carry each of these tags (by key): asked only with `include=count.posts`,
 * for one page. The maintained counters, less the scheduled posts' tags: O(page + schedule).
 */
export async function countPublicPostsByTag(
  db: Db,
  now: string,
  keys: readonly string[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const counted = await db
    .selectFrom("tag_post_counts")
    .select(["tag_key as name", "posts"])
    .where("tag_key", "in", [...keys])
    .execute();
  const scheduled = await listScheduledPosts(db, now);
  const scheduledTags = scheduled.length
    ? await db
        .selectFrom("post_tags")
        .select("tag_key")
        .where(
          "post_id",
          "in",
          scheduled.map((post) => post.id),
        )
        .where("tag_key", "in", [...keys])
        .execute()
    : [];
  return publicCounts(
    counted,
    scheduledTags.map((row) => row.tag_key),
  );
}

/** The first name posts are signed with after `after`, in order (posts_author_public_created_at). */
async function nextAuthor(db: Db, after: string | undefined): Promise<string | undefined> {
  const row = await db
    .selectFrom("posts")
    .select("author")
    .$if(after !== undefined, (query) => query.where("author", ">", after!))
    .orderBy("author")
    .limit(1)
    .executeTakeFirst();
  return row?.author;
}

async function signsPublicPost(db: Db, now: string, author: string): Promise<boolean> {
  const row = await selectPublicPosts(db, now)
    .select("posts.id")
    .where("posts.author", "=", author)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A page of the names public posts are signed with, in order. */
export async function listPublicAuthors(db: Db, now: string, walk: DistinctWalk) {
  return walkDistinct(
    walk,
    async (after) => {
      const author = await nextAuthor(db, after);
      return author === undefined ? undefined : { key: author, name: author };
    },
    (author) => signsPublicPost(db, now, author),
  );
}

/**
 * The name public posts are signed with that `matches` accepts: a byline's slug is made from its
 * name, not stored, so every name is passed in order (one seek each) until one matches.
 */
export async function findPublicAuthor(
  db: Db,
  now: string,
  matches: (name: string) => boolean,
): Promise<string | undefined> {
  for (let author = await nextAuthor(db, undefined); author !== undefined; author = await nextAuthor(db, author)) {
    if (matches(author) && (await signsPublicPost(db, now, author))) return author;
  }
  return undefined;
}

/**
 * How many public posts each of these names signed: asked only with `include=count.posts`, for
 * one page. The maintained counters, less the scheduled posts: O(page + schedule).
 */
export async function countPublicPostsByAuthor(
  db: Db,
  now: string,
  authors: readonly string[],
): Promise<Map<string, number>> {
  if (authors.length === 0) return new Map();
  const counted = await db
    .selectFrom("author_post_counts")
    .select(["author as name", "posts"])
    .where("author", "in", [...authors])
    .execute();
  const scheduled = await listScheduledPosts(db, now);
  return publicCounts(
    counted,
    scheduled.map((post) => post.author).filter((author) => authors.includes(author)),
  );
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
