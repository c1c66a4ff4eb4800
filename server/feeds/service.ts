import type { Category, CategoryRecord } from "#domain/categories.ts";
import type { Post } from "#domain/post.ts";
import type { FeedFormat } from "#domain/site-urls.ts";
import type { AuthorLink } from "#domain/account.ts";
import { authorPath, tagPath } from "#domain/site-urls.ts";
import { feedContentType, type FeedScope, renderFeed } from "./feeds.ts";
import {
  AUTHORS_SITEMAP,
  countPageSitemaps,
  type PageAddress,
  pageSitemapNumber,
  postSitemapCount,
  readPageSitemap,
  renderPagesSitemap,
  renderPathsSitemap,
  renderSitemapIndex,
  SITEMAP_MAX_URLS,
  streamPostsSitemap,
  TAGS_SITEMAP,
} from "./sitemap.ts";

/** What feeds and sitemaps read, from the posts, pages and media services. */
export interface FeedSources {
  posts: {
    listFeedPosts(category?: Category): Promise<Post[]>;
    countPublishedPosts(): Promise<number>;
    listCategoryUpdates(): Promise<{ category: string; updatedAt: string }[]>;
    streamPublishedPostAddresses(start: number, count: number): AsyncIterable<{ slug: string; updatedAt: string }[]>;
    listScopedFeedPosts(scope: { tag: string } | { author: string }): Promise<Post[]>;
    listPublicTags(limit: number): Promise<string[]>;
    listBylinesWithPosts(authors: readonly string[]): Promise<string[]>;
  };
  users: { listAuthorLinks(): Promise<AuthorLink[]> };
  pages: { listSitemapPages(afterSlug: string, limit: number): Promise<PageAddress[]> };
  categories: { list(): Promise<{ name: string }[]> };
  media: { fileSizes(paths: readonly string[]): Promise<ReadonlyMap<string, number>> };
}

/** The blog as its owner named it in Settings, at the address it answers on. */
interface FeedSite {
  siteUrl: string;
  title: string;
  description: string;
}

export function createFeedService({ posts, pages, media, categories, users }: FeedSources) {
  const listPages = (afterSlug: string, limit: number) => pages.listSitemapPages(afterSlug, limit);
  /** When each category with public posts last changed, in the writer's order. */
  async function categoryUpdatesInOrder() {
    const [updates, order] = await Promise.all([posts.listCategoryUpdates(), categories.list()]);
    const position = new Map(order.map((category, index) => [category.name, index]));
    return updates.toSorted((a, b) => (position.get(a.category) ?? 0) - (position.get(b.category) ?? 0));
  }
  async function listAuthorPaths(): Promise<string[]> {
    const authors = await users.listAuthorLinks();
    const withPosts = new Set(await posts.listBylinesWithPosts(authors.map((author) => author.name)));
    return authors.filter((author) => withPosts.has(author.name)).map((author) => authorPath(author.slug));
  }
  const listTagPaths = async (limit = SITEMAP_MAX_URLS) => (await posts.listPublicTags(limit)).map(tagPath);
  async function render(format: FeedFormat, site: FeedSite, items: Post[], scope?: FeedScope) {
    const fileSizes = await media.fileSizes(items.map((post) => post.coverImage));
    return {
      body: renderFeed(format, { site, posts: items, scope, fileSizes }),
      contentType: feedContentType(format),
      lastModified: new Date(Math.max(0, ...items.map((post) => Date.parse(post.updatedAt)))),
    };
  }
  return {
    /**
     * A tag's feed (undefined: no public post has the tag) or an author's (any author has one,
     * empty until they publish), its newest public posts.
     */
    async scopedFeed(format: FeedFormat, site: FeedSite, scope: { tag: string } | { author: AuthorLink }) {
      if ("tag" in scope) {
        const items = await posts.listScopedFeedPosts({ tag: scope.tag });
        const tag = items[0]?.tags.find((name) => name.toLowerCase() === scope.tag.toLowerCase());
        if (tag === undefined) return undefined;
        return render(format, site, items, { path: tagPath(tag), title: `#${tag}`, description: `tagged ${tag}` });
      }
      const { name, slug } = scope.author;
      const items = await posts.listScopedFeedPosts({ author: name });
      return render(format, site, items, { path: authorPath(slug), title: name, description: `by ${name}` });
    },

    /** A feed of the newest published posts, of one category when given, and when it last changed. */
    async feed(format: FeedFormat, site: FeedSite, category?: Pick<CategoryRecord, "name" | "description">) {
      const items = await posts.listFeedPosts(category?.name);
      const fileSizes = await media.fileSizes(items.map((post) => post.coverImage));
      return {
        body: renderFeed(format, {
          site,
          posts: items,
          category: category?.name,
          categoryDescription: category?.description,
          fileSizes,
        }),
        contentType: feedContentType(format),
        lastModified: new Date(Math.max(0, ...items.map((post) => Date.parse(post.updatedAt)))),
      };
    },

    /**
     * The sitemap file `file` names (sitemap.xml, pages.xml, pages-{n}.xml, posts-{n}.xml), or
     * undefined when there is no such file. A posts sitemap is a stream, written a batch at a time.
     */
    async sitemap(siteUrl: string, file: string): Promise<string | ReadableStream<Uint8Array> | undefined> {
      if (file === "sitemap.xml") {
        const [count, pageSitemaps, tags, authors] = await Promise.all([
          posts.countPublishedPosts(),
          countPageSitemaps(listPages),
          listTagPaths(1),
          listAuthorPaths(),
        ]);
        const listFiles = [
          ...(tags.length > 0 ? [TAGS_SITEMAP] : []),
          ...(authors.length > 0 ? [AUTHORS_SITEMAP] : []),
        ];
        return renderSitemapIndex(siteUrl, count, pageSitemaps, listFiles);
      }
      if (file === TAGS_SITEMAP || file === AUTHORS_SITEMAP) {
        const paths = file === TAGS_SITEMAP ? await listTagPaths() : await listAuthorPaths();
        return paths.length > 0 ? renderPathsSitemap(siteUrl, paths) : undefined;
      }
      const pageSitemap = pageSitemapNumber(file);
      if (pageSitemap !== undefined) {
        const addresses = await readPageSitemap(listPages, pageSitemap);
        if (!addresses) return undefined;
        const updates = pageSitemap === 1 ? await categoryUpdatesInOrder() : null;
        return renderPagesSitemap(siteUrl, addresses, updates);
      }
      const page = Number(/^posts-([1-9]\d{0,6})\.xml$/.exec(file)?.[1]);
      // Counting first settles both "no such page" and "database down" (a 503) before the stream starts.
      if (!page || page > postSitemapCount(await posts.countPublishedPosts())) return undefined;
      return streamPostsSitemap(
        siteUrl,
        posts.streamPublishedPostAddresses((page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS),
      );
    },
  };
}
