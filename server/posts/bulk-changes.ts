import { type BulkPostChange, type BulkPostOutcome, postInputFor } from "#domain/post-bulk.ts";
import { isDomainError } from "#domain/errors.ts";
import { type Post, type PostInput, postStatus } from "#domain/post.ts";
import type { Actor } from "../accounts/index.ts";
import type { Writer } from "./service.ts";

/** The post service's own doors, which every post of a bulk change goes through one by one. */
export interface PostWrites {
  find: (id: string) => Promise<Post | undefined>;
  updatePost: (id: string, input: PostInput, writer: Writer) => Promise<Post>;
  deletePost: (id: string, actor: Actor) => Promise<boolean>;
  now: () => Date;
}

/**
 * Publishes, unpublishes or deletes each post through the one save (or delete) a single change
 * uses, so its life's hooks (its email, the fediverse) run as they would for it alone. Each post
 * is its own transaction: one refused or failing leaves the others done. A post gone already is
 * passed over in silence, as a single delete is. docs/decisions/0025.
 */
export async function changeEachPost(
  writes: PostWrites,
  change: BulkPostChange,
  ids: readonly string[],
  writer: Writer,
): Promise<BulkPostOutcome> {
  const outcome: BulkPostOutcome = { change, changed: [], left: [] };
  for (const id of new Set(ids)) {
    const post = await writes.find(id);
    if (!post) continue;
    try {
      const left = await changeOne(writes, change, post, writer);
      if (left) outcome.left.push(left);
      else outcome.changed.push(post.title);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      outcome.left.push(`“${post.title}” could not be changed: ${error.message}`);
    }
  }
  return outcome;
}

/** Makes one post's change; answers why it was left as it was, or undefined once it is done. */
async function changeOne(
  writes: PostWrites,
  change: BulkPostChange,
  post: Post,
  writer: Writer,
): Promise<string | undefined> {
  if (change === "delete") {
    await writes.deletePost(post.id, writer);
    return undefined;
  }
  const status = postStatus(post, writes.now());
  if (change === "publish" && status === "Published") return `“${post.title}” is already published.`;
  // A scheduled post keeps the time its writer chose; its editor moves it.
  if (change === "publish" && status === "Scheduled")
    return `“${post.title}” is already scheduled; open it to change its time.`;
  if (change === "unpublish" && status === "Draft") return `“${post.title}” is already a draft.`;
  const publish = change === "publish";
  const judged = postInputFor(post, publish);
  if (!judged.ok)
    return `“${post.title}” was not ${publish ? "published" : "unpublished"}: ${judged.problems.join("; ")}.`;
  await writes.updatePost(post.id, judged.input, writer);
  return undefined;
}
