import type { PostSummary } from "../../server/repositories/posts.ts";

/** What a post card needs and no more: the fields a page sends for each post in a list. */
export type PostCardData = Pick<
  PostSummary,
  "id" | "title" | "excerpt" | "author" | "coverImage" | "category" | "tags" | "createdAt"
>;

export function toPostCardData(post: PostSummary): PostCardData {
  return {
    id: post.id,
    title: post.title,
    excerpt: post.excerpt,
    author: post.author,
    coverImage: post.coverImage,
    category: post.category,
    tags: post.tags,
    createdAt: post.createdAt,
  };
}

export function postPath(id: string): string {
  return `/blog/${encodeURIComponent(id)}`;
}
