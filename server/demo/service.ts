import type { Kysely } from "kysely";
import { demoPosts } from "./demo-content.ts";
import type { Database } from "../kernel/db/schema.ts";
import { postSchema } from "#domain/post.ts";
import { countPosts, insertPosts, toPostDraft } from "../posts/index.ts";
import { slugFromTitle } from "../kernel/slugs.ts";
import type { CommentService } from "../comments/index.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Loads the demo posts, drafts and comments, but only into a blog with no posts:
 * demo content must never mix with a writer's own. Returns how many posts it added. The
 * comments go through their owner, the comment service.
 */
export async function seedDemoContent(
  db: Kysely<Database>,
  comments: CommentService,
  options: { siteUrl: string; now: Date },
): Promise<number> {
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
    // Drafts have none: only a public post takes comments.
    if (demo.comments.length === 0) continue;
    await comments.addApprovedComments(
      postId!,
      demo.comments.map(({ author, content, hoursAfterPost }) => ({
        author,
        content,
        createdAt: new Date(createdAt.getTime() + hoursAfterPost * HOUR_MS).toISOString(),
      })),
    );
  }
  return demoPosts.length;
}
