import { data, Link, redirect } from "react-router";
import { NewsletterPanel } from "~/components/admin/editor/newsletter-panel";
import { PostViews } from "~/components/admin/analytics-post-views";
import { PostFediverseLine } from "~/components/admin/fediverse-counts";
import { PreviewLinkPanel } from "~/components/admin/editor/preview-link-panel";
import { RevisionList } from "~/components/admin/editor/revision-list";
import { UnsavedNotice } from "~/components/admin/editor/unsaved-notice";
import { PostForm } from "~/components/admin/post-form";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { setFlash, takeFlash } from "~/lib/flash.server";
import { postPath } from "~/lib/post-card-data";
import { parseSubmission } from "~/lib/forms.server";
import { refuseEditorForm } from "~/lib/post-form.server";
import { answerDomainErrors, type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { queryText } from "#domain/forms.ts";
import { isPostId, postForm, SAVE_FAILED_MESSAGE, toPostFormValues } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-edit";

const LOAD_FAILED_MESSAGE = "Failed to load post";

export const loader = withRouteErrors(
  {
    POST_NOT_FOUND: LOAD_FAILED_MESSAGE,
    DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE,
  },
  async ({ request, context, params }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services, site } = context.get(appContext);
    if (!isPostId(params.id)) throw data<RouteErrorData>({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
    const post = await services.posts.getPostForEditing(params.id);
    const [unsaved, revisions, previewLinkSince, sends, fediverse] = await Promise.all([
      services.posts.findUnsavedDraft(post.id),
      services.posts.listRevisions(post.id),
      services.posts.findPreviewLinkCreatedAt(post.id),
      services.postNewsletter.findSends([post.id]),
      // Only a post that was published can have been liked, boosted or replied to.
      post.published ? services.fediverse.postCounts(post.id) : undefined,
    ]);
    // ?recover=1 (a link, so it works without JavaScript) opens the editor on the autosaved text.
    // Readers are counted by the post's address; a draft has had none.
    const views = post.published
      ? await services.analyticsReports.postViews(postPath(post.slug), site.timeZone)
      : undefined;
    const recovering = unsaved !== undefined && queryText(new URL(request.url), "recover") === "1";
    const values = toPostFormValues(post);
    const flash = await takeFlash(request);
    return data(
      {
        id: post.id,
        slug: post.slug,
        published: post.published,
        values: recovering
          ? { ...values, title: unsaved.title, content: unsaved.content, format: unsaved.format }
          : values,
        recovering,
        unsavedSince: unsaved?.createdAt,
        revisions,
        views,
        previewLinkSince,
        email: { on: services.postNewsletter.emailOn, newsletter: post.newsletter },
        send: sends.get(post.id),
        fediverse,
        flash: flash.message,
      },
      { headers: flash.headers },
    );
  },
);

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  if (!isPostId(params.id)) throw data<RouteErrorData>({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
  const submission = await parseSubmission(request, postForm);
  if (!submission.ok) return submission.response;
  const refusal = {
    messages: { DATABASE_UNAVAILABLE: SAVE_FAILED_MESSAGE, POST_NOT_FOUND: LOAD_FAILED_MESSAGE },
    answer: refuseEditorForm(submission.values),
  };
  return answerDomainErrors(context, refusal, async () => {
    await services.posts.updatePost(params.id, submission.input, writerOf(admin));
    return redirect("/admin/posts", { headers: { "Set-Cookie": await setFlash(request, "saved") } });
  });
}

export default function AdminPostEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Edit Post · Admin</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Post</h1>
        <div className="flex flex-wrap items-center gap-4">
          {loaderData.views ? <PostViews views={loaderData.views} /> : null}
          <Link
            to={`/admin/comments?${new URLSearchParams({ post: loaderData.id })}`}
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Comments on this post
          </Link>
          <a
            href={postPath(loaderData.slug)}
            target="_blank"
            rel="noopener noreferrer"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            View post<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </div>
      {loaderData.flash ? (
        <p
          role="status"
          className="mb-6 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {loaderData.flash}
        </p>
      ) : null}
      <NewsletterPanel postId={loaderData.id} newsletter={loaderData.email.newsletter} send={loaderData.send} />
      {loaderData.fediverse ? <PostFediverseLine postId={loaderData.id} counts={loaderData.fediverse} /> : null}
      <UnsavedNotice unsavedSince={loaderData.unsavedSince} recovering={loaderData.recovering} />
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PostForm
          key={`${loaderData.id}-${loaderData.recovering ? "recovered" : "saved"}`}
          initialValues={actionData?.values ?? loaderData.values}
          result={actionData}
          submitLabel="Save Changes"
          postId={loaderData.id}
          email={loaderData.email}
        />
      </div>
      <div className="mt-8 grid gap-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 md:grid-cols-2 dark:border-slate-800 dark:bg-slate-900">
        <RevisionList postId={loaderData.id} revisions={loaderData.revisions} />
        <PreviewLinkPanel
          postId={loaderData.id}
          activeSince={loaderData.previewLinkSince}
          published={loaderData.published}
        />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
