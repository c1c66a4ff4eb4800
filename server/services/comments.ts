import type { Kysely } from "kysely";
import type { CommentInput } from "../../app/schemas/comment.ts";
import type { Database } from "../db/schema.ts";
import { DomainError, guardRead, guardWrite } from "../errors.ts";
import * as comments from "../repositories/comments.ts";
import type { Comment } from "../repositories/comments.ts";
import * as posts from "../repositories/posts.ts";
import { createRateLimiter, type RateLimitPolicy } from "./rate-limit.ts";

/**
 * Per client address: far more than a person writes in ten minutes, few enough that a
 * script cannot bury a post under spam. Counted in the database, so every app server shares it.
 */
export const COMMENT_RATE_LIMIT: RateLimitPolicy = { maxHits: 20, windowMs: 10 * 60 * 1000 };

export interface CommentServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  rateLimit?: RateLimitPolicy;
}

export function createCommentService({ db, now, rateLimit = COMMENT_RATE_LIMIT }: CommentServiceDeps) {
  const limiter = createRateLimiter({ db, now });

  return {
    /**
     * Visitors may comment on published posts only. With the visitor's address, each
     * attempt counts against that address's budget first, so refused spam costs one write.
     */
    async addComment(postId: string, input: CommentInput, visitor?: { clientAddress: string }): Promise<Comment> {
      if (visitor) await limiter.consume(`comment:${visitor.clientAddress}`, rateLimit);
      const post = await guardRead(() => posts.findPostById(db, postId));
      if (!post) throw new DomainError("POST_NOT_FOUND", "Post not found");
      if (!post.published) throw new DomainError("POST_NOT_AVAILABLE", "This post is not available");
      return guardWrite(() =>
        comments.insertComment(db, {
          postId,
          author: input.author,
          content: input.content,
          createdAt: now().toISOString(),
        }),
      );
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
