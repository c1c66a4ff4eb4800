import type { Kysely } from "kysely";
import { type PostInput, uniqueNonEmptyTags } from "../../app/schemas/post.ts";
import { categoryFromRouteValue, type Category } from "../../app/lib/categories.ts";
import type { Dialect } from "../db/connect.ts";
import type { Database } from "../db/schema.ts";
import { DomainError, guardRead, guardWrite } from "../errors.ts";
import { sanitizePostHtml } from "../html.ts";
import * as comments from "../repositories/comments.ts";
import * as posts from "../repositories/posts.ts";
import type { Post, PostSummary } from "../repositories/posts.ts";

export const HOME_LATEST_COUNT = 6;
export const HOME_PER_CATEGORY = 3;
export const RELATED_POSTS_COUNT = 3;

/** Post ids are 16 base64url characters; anything else cannot exist and is answered without a query. */
const POST_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface PostServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  now: () => Date;
}

export function createPostService({ db, dialect, now }: PostServiceDeps) {
  const timestamp = () => now().toISOString();
  // The schema already cleans tags; repeating it here keeps the tag key unique for any caller.
  const withCleanTags = (input: PostInput): PostInput => ({ ...input, tags: uniqueNonEmptyTags(input.tags) });

  return {
    async getHomePage() {
      return guardRead(async () => {
        const [newest, perCategory] = await Promise.all([
          posts.listPublishedPosts(db, { limit: 1 + HOME_LATEST_COUNT }),
          posts.listNewestPublishedPostsPerCategory(db, HOME_PER_CATEGORY),
        ]);
        const [featured, ...latest] = newest;
        const byCategory = new Map<string, PostSummary[]>();
        for (const post of perCategory) {
          byCategory.set(post.category, [...(byCategory.get(post.category) ?? []), post]);
        }
        return {
          featured,
          latest,
          categories: [...byCategory].map(([category, categoryPosts]) => ({ category, posts: categoryPosts })),
        };
      });
    },

    /** All published posts, newest first; with a query, only those whose title, text or a tag contains it. */
    async listPublishedPosts(query?: string) {
      return guardRead(() =>
        query?.trim() ? posts.searchPublishedPosts(db, dialect, query) : posts.listPublishedPosts(db),
      );
    },

    async listCategoryPosts(routeValue: string): Promise<{ category: Category; posts: PostSummary[] }> {
      const category = categoryFromRouteValue(routeValue);
      if (!category) throw new DomainError("CATEGORY_NOT_FOUND", "Category not found");
      return { category, posts: await guardRead(() => posts.listPublishedPostsByCategory(db, category)) };
    },

    async summariseCategories() {
      return guardRead(() => posts.summarisePublishedCategories(db));
    },

    /** A published post for a visitor, its HTML sanitised, with comments and random related posts. */
    async getPublicPost(id: string) {
      if (!POST_ID_PATTERN.test(id)) throw new DomainError("POST_NOT_FOUND", "Post not found");
      const post = await guardRead(() => posts.findPostById(db, id));
      if (!post) throw new DomainError("POST_NOT_FOUND", "Post not found");
      if (!post.published) throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
      const [postComments, related] = await guardRead(() =>
        Promise.all([
          comments.listCommentsForPost(db, id),
          posts.listPublishedPostsByCategory(db, post.category, {
            excludeId: id,
            limit: RELATED_POSTS_COUNT,
            random: true,
          }),
        ]),
      );
      return { post: { ...post, content: sanitizePostHtml(post.content) }, comments: postComments, related };
    },

    async listAllPosts(filter?: string) {
      return guardRead(() => posts.listAllPosts(db, filter));
    },

    async getPostForEditing(id: string): Promise<Post> {
      if (!POST_ID_PATTERN.test(id)) throw new DomainError("POST_NOT_FOUND", "Post not found");
      const post = await guardRead(() => posts.findPostById(db, id));
      if (!post) throw new DomainError("POST_NOT_FOUND", "Post not found");
      return post;
    },

    async createPost(input: PostInput): Promise<Post> {
      const at = timestamp();
      return guardWrite(() => posts.insertPost(db, withCleanTags(input), { createdAt: at, updatedAt: at }));
    },

    async updatePost(id: string, input: PostInput): Promise<Post> {
      if (!POST_ID_PATTERN.test(id)) throw new DomainError("POST_NOT_FOUND", "Post not found");
      const updated = await guardWrite(() => posts.updatePost(db, id, withCleanTags(input), timestamp()));
      if (!updated) throw new DomainError("POST_NOT_FOUND", "Post not found");
      return updated;
    },

    /** Deletes the post and every comment on it together; false when there was no such post. */
    async deletePost(id: string): Promise<boolean> {
      if (!POST_ID_PATTERN.test(id)) return false;
      return guardWrite(() => posts.deletePost(db, id));
    },
  };
}

export type PostService = ReturnType<typeof createPostService>;
