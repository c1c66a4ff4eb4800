// Ghost's Content API here: what a headless front end reads, the public's view only (the
// publishing rule, through the posts repository), a page at a time.
import type { Kysely } from "kysely";
import type { Category } from "#domain/categories.ts";
import { absoluteUrl, pagePath } from "#domain/site-urls.ts";
import type { Database } from "../kernel/db/schema.ts";
import { listCategories, publicSummariesInOrder, type PostService } from "../posts/index.ts";
import { ghostAuthor, ghostTag, toGhostPost } from "./ghost-posts.ts";
import { categoryForSlug, ghostTagFor, tagKeysForSlug } from "./ghost-tags.ts";
import * as ghostRows from "./repositories/ghost.ts";

/** A request the Content API cannot answer as asked: Ghost's BadRequestError. */
export class GhostBadRequestError extends Error {
  override name = "GhostBadRequestError";
}

/** Ghost's default page size, and the most one page holds (`limit=all` included): pages stay O(page). */
const DEFAULT_LIMIT = 15;
const MAX_LIMIT = 100;

export interface BrowseQuery {
  limit?: string;
  page?: string;
  fields?: string;
  include?: string;
  order?: string;
  filter?: string;
  formats?: string;
}

function pageWindowOf(query: BrowseQuery) {
  const limit = query.limit === "all" ? MAX_LIMIT : Number(query.limit ?? DEFAULT_LIMIT);
  const page = Number(query.page ?? 1);
  if (!Number.isInteger(limit) || limit < 1) throw new GhostBadRequestError("limit must be a whole number or all");
  if (!Number.isInteger(page) || page < 1 || page > 100_000)
    throw new GhostBadRequestError("page must be a whole number from 1");
  const size = Math.min(limit, MAX_LIMIT);
  return { limit: size, page, offset: (page - 1) * size };
}

function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

function pagination(page: number, limit: number, total: number) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return { page, limit, pages, total, next: page < pages ? page + 1 : null, prev: page > 1 ? page - 1 : null };
}

/**
 * When counting every match would cost more than the page (a filtered list, tags, authors): the
 * page is read with one item past it, and `total` is what is known, the items up to this page's
 * end plus one when another page follows, `pages` likewise (README, "Ghost's APIs"). `next` is exact.
 */
function openPagination(page: number, limit: number, shown: number, more: boolean) {
  const total = (page - 1) * limit + shown + (more ? 1 : 0);
  return {
    page,
    limit,
    pages: more ? page + 1 : page,
    total,
    next: more ? page + 1 : null,
    prev: page > 1 ? page - 1 : null,
  };
}

/** Only the fields asked for (`fields=title,url`), as Ghost answers them; all when none were named. */
function pick<T extends Record<string, unknown>>(item: T, fields: string[]): Partial<T> {
  if (fields.length === 0) return item;
  return Object.fromEntries(
    fields.filter((field) => Object.hasOwn(item, field)).map((field) => [field, item[field]]),
  ) as Partial<T>;
}

const unquote = (value: string) => value.replace(/^'(.*)'$/, "$1");

/**
 * Ghost's filter language (NQL), the part headless sites use: `key:value`, `key:[a,b]`, `key:-value`
 * not supported, comparisons `key:>value` (and `>=`, `<`, `<=`) for `published_at`, joined by
 * `+` (and). Keys: tag/tags/primary_tag, author/authors/primary_author, featured, slug, id, published_at.
 */
export function parseFilter(filter: string | undefined, categories: readonly string[]): ghostRows.PublicPostFilter {
  const result: ghostRows.PublicPostFilter = {};
  if (!filter) return result;
  if (/[(),](?![^[]*\])/.test(filter)) {
    throw new GhostBadRequestError("Only filters joined by + (and) are supported, without , (or) or brackets");
  }
  for (const expression of filter.split("+")) {
    const match = /^([a-z_.]+):(>=|<=|>|<|-)?(.+)$/.exec(expression.trim());
    if (!match) throw new GhostBadRequestError(`The filter ${expression} could not be read`);
    const [, key, op, rawValue] = match as unknown as [string, string, string | undefined, string];
    const values = /^\[(.*)\]$/.test(rawValue) ? listOf(rawValue.slice(1, -1)).map(unquote) : [unquote(rawValue)];
    const field = key.replace(/\.slug$/, "");
    if (op === "-") throw new GhostBadRequestError("Negated filters (key:-value) are not supported");
    if (field === "published_at") {
      if (!op || values.length !== 1 || Number.isNaN(Date.parse(values[0]!))) {
        throw new GhostBadRequestError("published_at compares with >, >=, < or <= and a date");
      }
      const at = new Date(values[0]!).toISOString();
      result.publishedAt = [...(result.publishedAt ?? []), { op: op as ghostRows.TimeComparison["op"], at }];
      continue;
    }
    if (op) throw new GhostBadRequestError(`${key} cannot be compared with ${op}`);
    if (field === "tag" || field === "tags" || field === "primary_tag") {
      result.tags = {
        keys: values.flatMap(tagKeysForSlug),
        categories: values.flatMap((value) => categoryForSlug(value, categories) ?? []),
      };
    } else if (field === "author" || field === "authors" || field === "primary_author") {
      result.authors = values.flatMap((value) => tagKeysForSlug(value));
    } else if (field === "featured") {
      if (values[0] === "true") result.featuredOnly = true;
      else if (values[0] !== "false") throw new GhostBadRequestError("featured is true or false");
    } else if (field === "slug") result.slugs = values;
    else if (field === "id") result.ids = values;
    else throw new GhostBadRequestError(`Filtering by ${key} is not supported`);
  }
  return result;
}

/** The one category a filter asks for, when that is all it asks. */
function onlyCategory(filter: ghostRows.PublicPostFilter): string | undefined {
  const [only, ...others] = Object.keys(filter);
  if (only !== "tags" || others.length > 0 || filter.tags?.categories.length !== 1) return undefined;
  return filter.tags.categories[0];
}

/** A tag's or an author's `count`, kept only when the caller asked for it. */
function shownCount<T extends { count: { posts: number } }>(item: T, withCounts: boolean): T | Omit<T, "count"> {
  if (withCounts) return item;
  const { count: _, ...rest } = item;
  return rest;
}

export interface GhostContentDeps {
  db: Kysely<Database>;
  now: () => Date;
  posts: PostService;
  siteUrl: string;
  readSite: () => Promise<{ title: string; description: string; logo: string; siteIcon: string; timeZone: string }>;
}

export function createGhostContent({ db, now, posts, siteUrl, readSite }: GhostContentDeps) {
  /** Posts as the Content API answers them: tags and authors only when included, only the fields asked. */
  async function present(ids: string[], query: BrowseQuery) {
    const at = now();
    const fields = listOf(query.fields);
    const include = new Set(listOf(query.include));
    const wantsBody = fields.length === 0 || fields.includes("html");
    const [summaries, bodies] = await Promise.all([
      publicSummariesInOrder(db, at.toISOString(), ids),
      wantsBody ? ghostRows.loadPublicBodies(db, at.toISOString(), ids) : new Map<string, string>(),
    ]);
    return summaries.map((summary) => {
      const {
        tags,
        authors,
        primary_tag,
        primary_author,
        lexical: _,
        mobiledoc: __,
        ...post
      } = {
        lexical: undefined,
        mobiledoc: undefined,
        ...toGhostPost({ ...summary, contentHtml: bodies.get(summary.id) }, { siteUrl, at, admin: false }),
      };
      return pick(
        {
          ...post,
          ...(include.has("tags") ? { tags, primary_tag } : {}),
          ...(include.has("authors") ? { authors, primary_author } : {}),
        },
        fields,
      );
    });
  }

  return {
    async browsePosts(query: BrowseQuery) {
      const { limit, page, offset } = pageWindowOf(query);
      const order = (query.order ?? "published_at desc").trim().toLowerCase();
      if (!/^published_at( (asc|desc))?$/.test(order))
        throw new GhostBadRequestError("order supports published_at asc or desc");
      // The categories matter only to a tag filter: an unfiltered page does not read them.
      const filter = query.filter
        ? parseFilter(
            query.filter,
            (await listCategories(db)).map((category) => category.name),
          )
        : {};
      const oldestFirst = order.endsWith("asc");
      const category = onlyCategory(filter);
      if (category !== undefined && !oldestFirst) {
        // The category's own page: its list index and the published-posts counter, O(page).
        const listed = await posts.listCategoryPosts(category as Category, page, limit);
        return {
          posts: await present(
            listed.items.map((post) => post.id),
            query,
          ),
          meta: { pagination: pagination(page, limit, listed.total) },
        };
      }
      // Unfiltered, the total is the maintained counters' (exact, O(categories)); filtered, it is not counted.
      const unfiltered = Object.keys(filter).length === 0;
      const [found, counted] = await Promise.all([
        ghostRows.listPublicPostIds(db, now().toISOString(), filter, { limit, offset, oldestFirst }),
        unfiltered ? posts.countPublishedPosts() : undefined,
      ]);
      return {
        posts: await present(found.ids, query),
        meta: {
          pagination:
            counted !== undefined
              ? pagination(page, limit, counted)
              : openPagination(page, limit, found.ids.length, found.more),
        },
      };
    },

    /** One public post by id or slug; undefined when the public may not read it. */
    async readPost(match: { id?: string; slug?: string }, query: BrowseQuery) {
      const filter = match.id ? { ids: [match.id] } : { slugs: [match.slug ?? ""] };
      const found = await ghostRows.listPublicPostIds(db, now().toISOString(), filter, {
        limit: 1,
        offset: 0,
        oldestFirst: false,
      });
      const [post] = await present(found.ids, query);
      return post;
    },

    async browsePages(query: BrowseQuery, match: { id?: string; slug?: string } = {}) {
      const { limit, page, offset } = pageWindowOf(query);
      const fields = listOf(query.fields);
      const found = await ghostRows.listPublicPages(db, {
        limit,
        offset,
        withBody: fields.length === 0 || fields.includes("html"),
        ...(match.id ? { ids: [match.id] } : {}),
        ...(match.slug ? { slugs: [match.slug] } : {}),
      });
      const items = found.rows.map((row) =>
        pick(
          {
            id: row.id,
            uuid: row.id,
            title: row.title,
            slug: row.slug,
            ...(row.contentHtml !== undefined ? { html: row.contentHtml } : {}),
            feature_image: null,
            featured: false,
            visibility: "public",
            created_at: row.createdAt,
            updated_at: row.updatedAt,
            published_at: row.createdAt,
            custom_excerpt: row.description || null,
            excerpt: row.description,
            url: absoluteUrl(siteUrl, pagePath(row.slug)),
          },
          fields,
        ),
      );
      return { pages: items, meta: { pagination: pagination(page, limit, found.total) } };
    },

    /**
     * Tags: the categories with public posts first (each post's primary tag, counted by the
     * maintained counters), then the tags public posts carry, walked a page at a time. Counts
     * only with `include=count.posts`, as Ghost answers.
     */
    async browseTags(query: BrowseQuery, slug?: string) {
      const { limit, page, offset } = pageWindowOf(query);
      const at = now().toISOString();
      const withCounts = listOf(query.include).includes("count.posts");
      const categories = (await posts.summariseCategories()).map((summary) => ({
        ...ghostTag(ghostTagFor(summary.category, true), siteUrl),
        count: { posts: summary.postCount },
      }));
      if (slug) {
        const category = categories.find((tag) => tag.slug === slug);
        if (category) return { tags: [shownCount(category, withCounts)] };
        const keys = tagKeysForSlug(slug);
        const counts = await ghostRows.countPublicPostsByTag(db, at, keys);
        const key = keys.find((candidate) => counts.has(candidate));
        if (!key) return { tags: [] };
        const tag = { ...ghostTag(ghostTagFor(key, false), siteUrl), count: { posts: counts.get(key)! } };
        return { tags: [shownCount(tag, withCounts)] };
      }
      const fromCategories = categories.slice(offset, offset + limit);
      const walked = await ghostRows.listPublicTags(db, at, {
        skip: Math.max(0, offset - categories.length),
        take: limit - fromCategories.length,
      });
      const counts = withCounts
        ? await ghostRows.countPublicPostsByTag(
            db,
            at,
            walked.found.map((row) => row.key),
          )
        : new Map<string, number>();
      const tags = [
        ...fromCategories.map((tag) => shownCount(tag, withCounts)),
        ...walked.found.map((row) =>
          shownCount(
            { ...ghostTag(ghostTagFor(row.name, false), siteUrl), count: { posts: counts.get(row.key) ?? 0 } },
            withCounts,
          ),
        ),
      ];
      const more = walked.more || categories.length > offset + limit;
      return { tags, meta: { pagination: openPagination(page, limit, tags.length, more) } };
    },

    /** The names public posts are signed with, a page at a time; counts only with `include=count.posts`. */
    async browseAuthors(query: BrowseQuery, slug?: string) {
      const { limit, page, offset } = pageWindowOf(query);
      const at = now().toISOString();
      const withCounts = listOf(query.include).includes("count.posts");
      const bySlug = slug
        ? await ghostRows.findPublicAuthor(db, at, (name) => ghostAuthor(name, siteUrl).slug === slug)
        : undefined;
      const walked = slug
        ? { found: bySlug === undefined ? [] : [{ key: bySlug, name: bySlug }], more: false }
        : await ghostRows.listPublicAuthors(db, at, { skip: offset, take: limit });
      const rows = walked.found;
      const counts = withCounts
        ? await ghostRows.countPublicPostsByAuthor(
            db,
            at,
            rows.map((row) => row.name),
          )
        : new Map<string, number>();
      const authors = rows.map((row) =>
        shownCount({ ...ghostAuthor(row.name, siteUrl), count: { posts: counts.get(row.name) ?? 0 } }, withCounts),
      );
      return { authors, meta: { pagination: openPagination(page, limit, authors.length, !slug && walked.more) } };
    },

    async settings() {
      const site = await readSite();
      return {
        settings: {
          title: site.title,
          description: site.description,
          logo: site.logo ? absoluteUrl(siteUrl, site.logo) : null,
          icon: site.siteIcon ? absoluteUrl(siteUrl, site.siteIcon) : null,
          accent_color: null,
          cover_image: null,
          locale: "en",
          timezone: site.timeZone,
          url: absoluteUrl(siteUrl, "/"),
          navigation: [],
          secondary_navigation: [],
          meta_title: null,
          meta_description: null,
          og_image: null,
          twitter_image: null,
        },
      };
    },
  };
}

export type GhostContent = ReturnType<typeof createGhostContent>;
