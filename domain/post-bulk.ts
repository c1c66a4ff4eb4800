import { z } from "./zod.ts";
import { collectFieldErrors, defineForm, formText, formTexts } from "./forms.ts";
import { ADMIN_POSTS_PER_PAGE } from "./pagination.ts";
import { isPostId, type Post, type PostInput, postSchema, toPostFormValues } from "./post.ts";

/** What the posts list does to the selected posts at once (docs/decisions/0025). */
export const BULK_POST_CHANGES = ["publish", "unpublish", "delete"] as const;
export type BulkPostChange = (typeof BULK_POST_CHANGES)[number];

export const NOTHING_SELECTED_MESSAGE = "Select at least one post first.";

/**
 * The posts list's bulk form: the change (its button) and the ticked posts. The same definition
 * reads the question (a GET, so it works without JavaScript) and the confirmed change (a POST).
 */
export const bulkPostsForm = defineForm({
  fields: ["change", "id"],
  read: (formData: FormData) => ({ change: formText(formData, "change"), id: formTexts(formData, "id") }),
  schema: z.object({
    change: z.enum(BULK_POST_CHANGES, { error: "Choose Publish, Unpublish or Delete" }),
    id: z
      .array(z.string().refine(isPostId, "A selected post could not be read. Please reload the page."))
      .min(1, NOTHING_SELECTED_MESSAGE)
      // One screen of the list at most: the checkboxes are its rows.
      .max(ADMIN_POSTS_PER_PAGE, `Select at most ${ADMIN_POSTS_PER_PAGE} posts at once.`),
  }),
});

/** A post's fields as the editor would save them, `published` as asked, or why the editor would refuse them. */
export function postInputFor(
  post: Post,
  published: boolean,
): { ok: true; input: PostInput } | { ok: false; problems: string[] } {
  const parsed = postSchema.safeParse({ ...toPostFormValues(post), published });
  if (parsed.success) return { ok: true, input: parsed.data };
  // One message a field, as the editor shows them.
  return {
    ok: false,
    problems: Object.values(collectFieldErrors(parsed.error)).filter((message) => message !== undefined),
  };
}

/** What a bulk change did: the posts it changed, and each one it left with the reason, in plain words. */
export interface BulkPostOutcome {
  change: BulkPostChange;
  changed: string[];
  left: string[];
}

const DONE: Record<BulkPostChange, string> = { publish: "Published", unpublish: "Unpublished", delete: "Deleted" };
const NONE: Record<BulkPostChange, string> = {
  publish: "No post was published.",
  unpublish: "No post was unpublished.",
  delete: "No post was deleted.",
};

/** The outcome as the list says it: a summary line, then one line per post left as it was. */
export function describeBulkOutcome({ change, changed, left }: BulkPostOutcome): string[] {
  const summary =
    changed.length === 0
      ? NONE[change]
      : changed.length === 1
        ? `${DONE[change]} “${changed[0]}”.`
        : `${DONE[change]} ${changed.length} posts.`;
  return [summary, ...left];
}

/** The posts a question names, with whether publishing one sends its email. */
export interface QuestionedPost {
  id: string;
  title: string;
  emailsSubscribers: boolean;
}

export type BulkQuestion =
  | { change: BulkPostChange; posts: QuestionedPost[]; problem?: undefined }
  | { problem: string; change?: undefined; posts?: undefined };

/** The question's words: "Publish 3 posts?", and its Yes button. */
export function bulkQuestion(change: BulkPostChange, count: number): { title: string; confirm: string } {
  const verb = { publish: "Publish", unpublish: "Unpublish", delete: "Delete" }[change];
  const what = count === 1 ? "1 post" : `${count} posts`;
  return { title: `${verb} ${what}?`, confirm: `Yes, ${verb.toLowerCase()} ${what}` };
}
