import type { Kysely } from "kysely";
import type { CommentInput } from "../../app/schemas/comment.ts";
import type { Database } from "../db/schema.ts";
import { DomainError, guardRead, guardWrite } from "../errors.ts";
import * as comments from "../repositories/comments.ts";
import type { Comment } from "../repositories/comments.ts";
import * as posts from "../repositories/posts.ts";

export function createCommentService({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  return {
    /** Visitors may comment on published posts only. */
    async addComment(postId: string, input: CommentInput): Promise<Comment> {
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
