import type { Post, PostSummary } from "#domain/post.ts";

/** What a post card needs and no more: the fields a page sends for each post in a list. */
export type PostCardData = Pick<
  PostSummary,
  "id" | "slug" | "title" | "excerpt" | "author" | "coverImage" | "category" | "tags" | "createdAt" | "readingMinutes"
>;

export function toPostCardData(post: PostSummary): PostCardData {
  return {
    id: post.id,
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    author: post.author,
    coverImage: post.coverImage,
    category: post.category,
    tags: post.tags,
    createdAt: post.createdAt,
    readingMinutes: post.readingMinutes,
  };
}

/**
 * A post as its page and its private preview show it: every field but the source as typed and
 * the writer's switches (format, publishing, comments, email). A new field of a post reaches the page as it is.
 */
export type ArticleData = Omit<
  Post,
  "content" | "format" | "published" | "publishAt" | "commentsClosed" | "newsletter" | "webmentionsOff"
>;

export function toArticleData(post: Post): ArticleData {
  const {
    content: _content,
    format: _format,
    published: _published,
    publishAt: _at,
    commentsClosed: _closed,
    newsletter: _newsletter,
    webmentionsOff: _webmentionsOff,
    ...article
  } = post;
  return article;
}

export { postPath } from "#domain/site-urls.ts";
