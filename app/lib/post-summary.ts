import type { Post } from "../../server/repositories/posts.ts";

/** What a post card needs: lists send this instead of whole posts, so pages do not carry every post body. */
export type PostSummary = Pick<
  Post,
  "id" | "title" | "excerpt" | "author" | "coverImage" | "category" | "tags" | "createdAt"
>;

export function toPostSummary(post: Post): PostSummary {
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
