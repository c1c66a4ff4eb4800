// What readers see of posts: the home page, the lists (all, a category, a tag, an author), a
// post's page, feeds and sitemaps, all read through the publishing rule (posts-public.ts).
import type { Kysely } from "kysely";
import type { Category } from "#domain/categories.ts";
import { DomainError } from "#domain/errors.ts";
import { mediaHashesIn } from "#domain/media.ts";
import { type OpenPage, type Page, POSTS_PER_PAGE } from "#domain/pagination.ts";
import type { Post, PostSummary } from "#domain/post.ts";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import { pictureUploadedImages } from "../kernel/html.ts";
import { describeMedia, mediaRepository as media } from "../media/index.ts";
import * as categories from "./repositories/categories.ts";
import * as posts from "./repositories/posts.ts";
import * as postsByTagAndAuthor from "./repositories/posts-by-tag-and-author.ts";
import * as publicPosts from "./repositories/posts-public.ts";
import * as postSearch from "./repositories/posts-search.ts";

export const HOME_LATEST_COUNT = 6;
export const HOME_PER_CATEGORY = 3;
export const RELATED_POSTS_COUNT = 3;
/** How many posts a feed carries, newest first. */
export const FEED_POST_COUNT = 20;

/** The writer's category names, in alphabetical order: the home page's sections and the sitemap's. */
async function categoryNames(db: Kysely<Database>): Promise<string[]> {
  return (await categories.listCategories(db)).map((category) => category.name).sort();
}

/** A published post; a draft is "not available" rather than missing, as the spec words it. */
export async function requirePublicPost(db: Kysely<Database>, id: string, now: Date): Promise<Post> {
  const post = await publicPosts.findPublicPostById(db, id, now.toISOString());
  if (post) return post;
  if (await posts.postExists(db, id)) {
    throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
  }
  throw new DomainError("POST_NOT_FOUND", "Post not found");
}

/** The published post at a /blog/{address} URL: its slug, a former slug or its id. */
async function requirePublicPostAt(db: Kysely<Database>, address: string, now: Date): Promise<Post> {
  const id = await posts.findPostIdByAddress(db, address);
  return requirePublicPost(db, id ?? address, now);
}

export interface PublicPostReadsDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
  /** Picks the related posts; tests pass a fixed one. */
  random: () => number;
}

export function createPublicPostReads({ db, dialect, now, random }: PublicPostReadsDeps) {
  const timestamp = () => now().toISOString();
  return {
    findPublicPost: (id: string) => requirePublicPost(db, id, now()),

    async getHomePage() {
      // One small indexed query per category rather than a window over every post.
      const at = timestamp();
      const homeCategories = await categoryNames(db);
      const [newest, ...perCategory] = await Promise.all([
        publicPosts.listNewestPublishedPosts(db, at, 1 + HOME_LATEST_COUNT),
        ...homeCategories.map((category) =>
          publicPosts.listNewestPublishedPostsInCategory(db, at, category, HOME_PER_CATEGORY),
        ),
      ]);
      const [featured, ...latest] = newest;
      return {
        featured,
        latest,
        categories: homeCategories
          .map((category, index) => ({
            category,
            posts: perCategory[index]!,
          }))
          .filter((section) => section.posts.length > 0),
      };
    },

    /**
     * A page of published posts, newest first; with a query, only those whose title, text or a tag contains it.
     * `pageSize` is the site's "posts per page" setting.
     */
    async listPublishedPosts(query?: string, page = 1, pageSize = POSTS_PER_PAGE): Promise<Page<PostSummary>> {
      const request = { page, pageSize };
      return query?.trim()
        ? postSearch.searchPublishedPosts(db, dialect, query, timestamp(), request)
        : publicPosts.listPublishedPosts(db, timestamp(), request);
    },

    async listCategoryPosts(category: Category, page = 1, pageSize = POSTS_PER_PAGE): Promise<Page<PostSummary>> {
      return publicPosts.listPublishedPostsByCategory(db, timestamp(), category, { page, pageSize });
    },

    /** A page of one tag's public posts (`tag` any case), and the tag as they spell it: undefined, no public post has it. */
    async listTagPosts(tag: string, page = 1, pageSize = POSTS_PER_PAGE) {
      return postsByTagAndAuthor.listPublishedPostsByTag(db, timestamp(), tag.toLowerCase(), { page, pageSize });
    },

    /** A page of the public posts bylined `author` (an author page, docs/decisions/0022). */
    async listAuthorPosts(author: string, page = 1, pageSize = POSTS_PER_PAGE): Promise<OpenPage<PostSummary>> {
      return postsByTagAndAuthor.listPublishedPostsByAuthor(db, timestamp(), author, { page, pageSize });
    },

    /** The newest public posts of a tag or a byline, bodies included: a feed's items. */
    async listScopedFeedPosts(scope: { tag: string } | { author: string }): Promise<Post[]> {
      return publicPosts.listNewestPublishedPostsWithContent(db, timestamp(), {
        limit: FEED_POST_COUNT,
        ...("tag" in scope ? { tagKey: scope.tag.toLowerCase() } : { author: scope.author }),
      });
    },

    /** Every tag of a public post (a sitemap's, at most `limit`). */
    async listPublicTags(limit: number): Promise<string[]> {
      return postsByTagAndAuthor.listPublicTags(db, timestamp(), limit);
    },

    /** Which of these bylines have a public post. */
    async listBylinesWithPosts(authors: readonly string[]): Promise<string[]> {
      return postsByTagAndAuthor.listBylinesWithPublicPosts(db, timestamp(), authors);
    },

    async summariseCategories() {
      return publicPosts.summarisePublishedCategories(db, timestamp(), await categoryNames(db));
    },

    /**
     * A published post for a visitor (its HTML sanitised when it was saved), with random
     * related posts; its comments are the comment service's (describeThread). `address` is its
     * slug, a slug it had before, or its id; the post's `slug` says whether the caller should redirect.
     */
    async getPublicPost(address: string) {
      const post = await requirePublicPostAt(db, address, now());
      const { id } = post;
      const [related, images] = await Promise.all([
        publicPosts.pickRelatedPublishedPosts(db, timestamp(), post.category, id, RELATED_POSTS_COUNT, random),
        media.findMediaByHashes(db, mediaHashesIn(post.content)),
      ]);
      // Uploaded images become <picture> with their stored sizes; the HTML itself was sanitised when saved.
      const contentHtml = pictureUploadedImages(
        post.contentHtml,
        new Map(images.map((record) => [record.hash, describeMedia(record)])),
      );
      return { post: { ...post, contentHtml }, related };
    },

    /** When the public view next changes by itself: the earliest scheduled post still ahead, or null. */
    async nextScheduledPublishAt(): Promise<string | null> {
      return publicPosts.nextScheduledPublishAt(db, timestamp());
    },

    /** The newest published posts (bodies as sanitised when saved), of one category when given: a feed's items. */
    async listFeedPosts(category?: Category): Promise<Post[]> {
      return publicPosts.listNewestPublishedPostsWithContent(db, timestamp(), { limit: FEED_POST_COUNT, category });
    },

    async countPublishedPosts(): Promise<number> {
      return publicPosts.countPublishedPosts(db, timestamp());
    },

    /**
     * Published posts' addresses from `start` (0-based, in id order), `count` of them, in
     * batches of `batch`, so a sitemap never holds every post.
     */
    async *streamPublishedPostAddresses(start: number, count: number, batch = 1000) {
      const at = timestamp();
      let afterId = start === 0 ? undefined : await publicPosts.findPublishedPostIdAt(db, at, start - 1);
      if (start > 0 && afterId === undefined) return;
      let remaining = count;
      while (remaining > 0) {
        const page = await publicPosts.listPublishedPostAddresses(db, at, {
          afterId,
          limit: Math.min(batch, remaining),
        });
        if (page.length > 0) yield page;
        if (page.length < Math.min(batch, remaining)) return;
        remaining -= page.length;
        afterId = page.at(-1)?.id;
      }
    },

    async listCategoryUpdates() {
      return publicPosts.listPublishedCategoryUpdates(db, timestamp(), await categoryNames(db));
    },
  };
}
