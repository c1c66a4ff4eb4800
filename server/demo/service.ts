import type { Kysely } from "kysely";
import { demoPosts } from "./demo-content.ts";
import type { Database } from "../kernel/db/schema.ts";
import { postSchema } from "#domain/post.ts";
import { countPosts, insertPosts, toPostDraft } from "../posts/index.ts";
import { slugFromTitle } from "../kernel/slugs.ts";
import type { CommentService } from "../comments/index.ts";
import type { Actor } from "../accounts/index.ts";
import type { PostService } from "../posts/index.ts";
import { readSetting, writeSetting } from "../kernel/repositories/settings.ts";
import { findPostsAtSlugs, listCommentsOnPosts, type PostAtDemoSlug } from "./repositories/demo-rows.ts";

const HOUR_MS = 60 * 60 * 1000;
/** Where the blog remembers that its writer removed the demo, so no restart brings it back. */
const REMOVED_KEY = "demo-removed";
const DAY_MS = 24 * HOUR_MS;

/**
 * Loads the demo posts, drafts and comments, but only into a blog with no posts whose writer
 * never removed the demo: demo content must never mix with a writer's own. Returns how many posts it added. The
 * comments go through their owner, the comment service.
 */
export async function seedDemoContent(
  db: Kysely<Database>,
  comments: CommentService,
  options: { siteUrl: string; now: Date },
): Promise<number> {
  if ((await countPosts(db)) > 0 || (await readSetting(db, REMOVED_KEY)) !== undefined) return 0;
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

/** The demo post written at each slug: its address is what finds it again. */
const DEMO_BY_SLUG = new Map(demoPosts.map((demo) => [slugFromTitle(demo.title), demo]));

/** What the demo wrote that is still as it wrote it, and the demo posts kept because someone changed them. */
export interface DemoSurvey {
  removable: { id: string; title: string; comments: number }[];
  kept: string[];
}

/**
 * Whether a post at a demo slug is still exactly what the demo wrote (docs/decisions/0025): the
 * demo's title, excerpt and body, never saved since (any save moves `updated_at` off `created_at`,
 * which the demo wrote equal), no revision (not even an autosave), and no comment but the demo's.
 */
function isUntouched(post: PostAtDemoSlug): boolean {
  const demo = DEMO_BY_SLUG.get(post.slug)!;
  return (
    post.title === demo.title &&
    post.excerpt === demo.excerpt &&
    post.content === demo.content &&
    post.createdAt === post.updatedAt &&
    post.revisions === 0 &&
    post.comments <= demo.comments.length
  );
}

export interface DemoServiceDeps {
  db: Kysely<Database>;
  posts: Pick<PostService, "deletePost">;
  now: () => Date;
}

/** Tools → "Remove the demo content": finds what the demo wrote and removes only that. */
export function createDemoService({ db, posts, now }: DemoServiceDeps) {
  async function survey(): Promise<DemoSurvey> {
    const found = await findPostsAtSlugs(db, [...DEMO_BY_SLUG.keys()]);
    const candidates = found.filter(isUntouched);
    const comments = await listCommentsOnPosts(
      db,
      candidates.filter((post) => post.comments > 0).map((post) => post.id),
    );
    const theDemos = (post: PostAtDemoSlug) => {
      const written = DEMO_BY_SLUG.get(post.slug)!.comments;
      return comments
        .filter((comment) => comment.postId === post.id)
        .every((comment) => written.some((demo) => demo.author === comment.author && demo.content === comment.content));
    };
    const removable = candidates.filter(theDemos);
    const removableIds = new Set(removable.map((post) => post.id));
    return {
      removable: removable.map(({ id, title, comments: count }) => ({ id, title, comments: count })),
      kept: found.filter((post) => !removableIds.has(post.id)).map((post) => post.title),
    };
  }

  return {
    survey,

    /**
     * Deletes every demo post still as the demo wrote it, each through the posts service (its
     * comments, tags and search row with it; the audit log names the writer), and remembers that
     * the demo was removed, so a restart of an empty blog does not load it again.
     */
    async remove(actor: Actor): Promise<{ posts: number; comments: number; kept: string[] }> {
      const { removable, kept } = await survey();
      let removedPosts = 0;
      let removedComments = 0;
      for (const post of removable) {
        if (!(await posts.deletePost(post.id, actor))) continue;
        removedPosts += 1;
        removedComments += post.comments;
      }
      await writeSetting(db, REMOVED_KEY, { at: now().toISOString() });
      return { posts: removedPosts, comments: removedComments, kept };
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
