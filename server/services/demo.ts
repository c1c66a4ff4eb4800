import type { Kysely } from "kysely";
import { demoPosts } from "../demo/demo-content.ts";
import type { Database } from "../db/schema.ts";
import { insertComment } from "../repositories/comments.ts";
import { postSchema } from "#domain/post.ts";
import { countPosts, insertPosts } from "../repositories/posts.ts";
import { slugFromTitle } from "../slugs.ts";
import { toPostDraft } from "./posts.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Loads the demo posts, drafts and comments, but only into a blog with no posts:
 * demo content must never mix with a writer's own. Returns how many posts it added.
 */
export async function seedDemoContent(db: Kysely<Database>, options: { siteUrl: string; now: Date }): Promise<number> {
  if ((await countPosts(db)) > 0) return 0;
  for (const demo of demoPosts) {
    const createdAt = new Date(options.now.getTime() - demo.daysAgo * DAY_MS);
    const [postId] = await insertPosts(db, [
      {
        // The schema gives every field the demo leaves out its default, as the editor would.
        ...toPostDraft(
          postSchema.parse({
            title: demo.title,
            // Demo titles are distinct, so their slugs are too.
            slug: slugFromTitle(demo.title),
            content: demo.content,
            excerpt: demo.excerpt,
            author: demo.author,
            coverImage: new URL(`/covers/${demo.coverFile}`, options.siteUrl).href,
            category: demo.category,
            tags: demo.tags,
            published: demo.published,
            format: "html",
          }),
        ),
        createdAt: createdAt.toISOString(),
        updatedAt: createdAt.toISOString(),
      },
    ]);
    for (const comment of demo.comments) {
      await insertComment(db, {
        postId: postId!,
        author: comment.author,
        content: comment.content,
        createdAt: new Date(createdAt.getTime() + comment.hoursAfterPost * HOUR_MS).toISOString(),
        status: "approved",
        ipHash: null,
        heldReason: null,
      });
    }
  }
  return demoPosts.length;
}
