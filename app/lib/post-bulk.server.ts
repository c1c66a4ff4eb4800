// The posts list's bulk change (components/admin/post-bulk.tsx): the question a GET asks, and
// the confirmed POST, which changes each post through the posts service.
import type { RouterContextProvider } from "react-router";
import { isPostId, type PostStatus, type PostSummary } from "#domain/post.ts";
import { type BulkQuestion, bulkPostsForm, describeBulkOutcome, NOTHING_SELECTED_MESSAGE } from "#domain/post-bulk.ts";
import { validateForm } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { requireAdmin, writerOf } from "./auth.server.ts";
import { parseSubmission } from "./forms.server.ts";
import { withRouteErrors } from "./route-errors.server.ts";

/**
 * The question `?change=…&id=…` asks about the posts of this page of the list, or null when it
 * asks none. A post ticked on another page, or gone since, is not in it.
 */
export function readBulkQuestion(
  url: URL,
  listed: readonly (Pick<PostSummary, "id" | "title" | "newsletter"> & { status: PostStatus })[],
): BulkQuestion | null {
  if (!url.searchParams.has("change")) return null;
  const formData = new FormData();
  for (const [name, value] of url.searchParams) formData.append(name, value);
  const judged = validateForm(bulkPostsForm, bulkPostsForm.read(formData));
  if (!judged.success) return { problem: judged.errors.id ?? judged.errors.change ?? NOTHING_SELECTED_MESSAGE };
  const ticked = new Set(judged.data.id);
  const posts = listed
    .filter((post) => ticked.has(post.id))
    .map((post) => ({
      id: post.id,
      title: post.title,
      // The email goes when a post first becomes public with its box ticked (newsletterAfterSave).
      emailsSubscribers: judged.data.change === "publish" && post.status === "Draft" && post.newsletter === "wanted",
    }));
  return posts.length > 0 ? { change: judged.data.change, posts } : { problem: NOTHING_SELECTED_MESSAGE };
}

/** The ticked posts a question keeps ticked while it is open. */
export function tickedIds(url: URL): string[] {
  return url.searchParams.getAll("id").filter(isPostId);
}

/** The confirmed change: each post through the service, the outcome in words (it names posts, so it rides no flash). */
export const changePostsFromList = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to update posts. Please try again." },
  async ({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) => {
    const user = requireAdmin({ request, context });
    const submission = await parseSubmission(request, bulkPostsForm);
    if (!submission.ok) return submission.response;
    const { services } = context.get(appContext);
    // Every writer publishes and deletes any post (README, "Owner and editors"): the check is the session's.
    const outcome = await services.posts.changePosts(submission.input.change, submission.input.id, writerOf(user));
    return { outcome: describeBulkOutcome(outcome) };
  },
);
