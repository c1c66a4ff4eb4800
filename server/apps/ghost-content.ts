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

/** Only the fields asked for (`fields=title,url`), as Ghost answers them; all when none were named. */
function pick<T extends Record<string, unknown>>(item: T, fields: string[]): Partial<T> {
  if (fields.length === 0) return item;
  return Object.fromEntries(fields.filter((field) => field in item).map((field) => [field, item[field]])) as Partial<T>;
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
      const filter = parseFilter(
        query.filter,
        (await listCategories(db)).map((category) => category.name),
      );
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
      const unfiltered = Object.keys(filter).length === 0;
      const [found, counted] = await Promise.all([
        ghostRows.listPublicPostIds(db, now().toISOString(), filter, {
          limit,
          offset,
          oldestFirst,
          count: !unfiltered,
        }),
        unfiltered ? posts.countPublishedPosts() : undefined,
      ]);
      return {
        posts: await present(found.ids, query),
        meta: { pagination: pagination(page, limit, counted ?? found.total ?? 0) },
      };
    },

    /** One public post by id or slug; undefined when the public may not read it. */
    async readPost(match: { id?: string; slug?: string }, query: BrowseQuery) {
      const filter = match.id ? { ids: [match.id] } : { slugs: [match.slug ?? ""] };
      const found = await ghostRows.listPublicPostIds(db, now().toISOString(), filter, {
        limit: 1,
        offset: 0,
        oldestFirst: false,
        count: false,
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

    /** Tags: the categories with public posts first (each post's primary tag), then the tags public posts carry. */
    async browseTags(query: BrowseQuery, slug?: string) {
      const { limit, page, offset } = pageWindowOf(query);
      const at = now().toISOString();
      const categories = (await posts.summariseCategories()).map((summary) => ({
        name: summary.category,
        posts: summary.postCount,
      }));
      const tagRows = await ghostRows.listPublicTags(db, at, {
        limit: offset + limit,
        offset: 0,
      });
      const tags = [
        ...categories.map((row) => ({
          ...ghostTag(ghostTagFor(row.name, true), siteUrl),
          count: { posts: row.posts },
        })),
        ...tagRows.map((row) => ({ ...ghostTag(ghostTagFor(row.name, false), siteUrl), count: { posts: row.posts } })),
      ];
      const chosen = slug ? tags.filter((tag) => tag.slug === slug).slice(0, 1) : tags.slice(offset, offset + limit);
      return { tags: chosen, meta: { pagination: pagination(page, limit, offset + tags.length) } };
    },

    async browseAuthors(query: BrowseQuery, slug?: string) {
      const { limit, page, offset } = pageWindowOf(query);
      const rows = await ghostRows.listPublicAuthors(db, now().toISOString(), {
        limit: slug ? MAX_LIMIT : limit,
        offset: slug ? 0 : offset,
      });
      const authors = rows.map((row) => ({ ...ghostAuthor(row.name, siteUrl), count: { posts: row.posts } }));
      const chosen = slug ? authors.filter((author) => author.slug === slug).slice(0, 1) : authors;
      return { authors: chosen, meta: { pagination: pagination(page, limit, offset + rows.length) } };
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
