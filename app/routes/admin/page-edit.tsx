import { data } from "react-router";
import { PreviewLinkPanel } from "~/components/admin/editor/preview-link-panel";
import { RevisionList } from "~/components/admin/editor/revision-list";
import { EditorNote, UnsavedNotice } from "~/components/admin/editor/unsaved-notice";
import { PageForm, SAVE_PAGE_FAILED_MESSAGE } from "~/components/admin/page-form";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { redirectWithFlash, takeFlash } from "~/lib/flash.server";
import { parseSubmission } from "~/lib/forms.server";
import { refuseEditorForm } from "~/lib/post-form.server";
import { answerDomainErrors, type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { queryText } from "#domain/forms.ts";
import { pageForm, showsOriginalDesign, toPageFormValues } from "#domain/page.ts";
import { isPostId } from "#domain/post.ts";
import { pagePath } from "#domain/site-urls.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/page-edit";

const LOAD_FAILED_MESSAGE = "Failed to load page";

/** Page ids are made as post ids are; anything else names no page and is answered without a query. */
function requireId(id: string): string {
  if (!isPostId(id)) throw data<RouteErrorData>({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
  return id;
}

export const loader = withRouteErrors(
  { PAGE_NOT_FOUND: LOAD_FAILED_MESSAGE, DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context, params }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const page = await services.pages.getPageForEditing(requireId(params.id));
    const [unsaved, revisions, previewLinkSince] = await Promise.all([
      services.pages.findUnsavedDraft(page.id),
      services.pages.listRevisions(page.id),
      services.pages.findPreviewLinkCreatedAt(page.id),
    ]);
    // ?recover=1 (a link, so it works without JavaScript) opens the editor on the autosaved text.
    const recovering = unsaved !== undefined && queryText(new URL(request.url), "recover") === "1";
    const values = toPageFormValues(page);
    const flash = await takeFlash(request);
    return data(
      {
        id: page.id,
        slug: page.slug,
        published: page.published,
        originalDesign: showsOriginalDesign(page),
        values: recovering
          ? { ...values, title: unsaved.title, content: unsaved.content, format: unsaved.format }
          : values,
        recovering,
        unsavedSince: unsaved?.createdAt,
        revisions,
        previewLinkSince,
        flash: flash.message,
      },
      { headers: flash.headers },
    );
  },
);

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const id = requireId(params.id);
  const submission = await parseSubmission(request, pageForm);
  if (!submission.ok) return submission.response;
  const refusal = {
    messages: { DATABASE_UNAVAILABLE: SAVE_PAGE_FAILED_MESSAGE, PAGE_NOT_FOUND: LOAD_FAILED_MESSAGE },
    answer: refuseEditorForm(submission.values),
  };
  return answerDomainErrors(context, refusal, async () => {
    await services.pages.updatePage(id, submission.input, writerOf(admin));
    return redirectWithFlash(request, "/admin/pages", "page-saved");
  });
}

export default function AdminPageEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Edit Page · Admin</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Page</h1>
        {loaderData.published ? (
          <a
            href={pagePath(loaderData.slug)}
            target="_blank"
            rel="noopener noreferrer"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            View page<span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
      </div>
      {loaderData.flash ? (
        <p
          role="status"
          className="mb-6 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {loaderData.flash}
        </p>
      ) : null}
      {loaderData.originalDesign ? (
        <EditorNote>Readers see this page&apos;s original design until you save it.</EditorNote>
      ) : null}
      <UnsavedNotice unsavedSince={loaderData.unsavedSince} recovering={loaderData.recovering} />
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <PageForm
          key={`${loaderData.id}-${loaderData.recovering ? "recovered" : "saved"}`}
          initialValues={actionData?.values ?? loaderData.values}
          result={actionData}
          submitLabel="Save Changes"
          pageId={loaderData.id}
        />
      </div>
      <div className="mt-8 grid gap-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 md:grid-cols-2 dark:border-slate-800 dark:bg-slate-900">
        <RevisionList postId={loaderData.id} kind="page" revisions={loaderData.revisions} />
        <PreviewLinkPanel
          postId={loaderData.id}
          kind="page"
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
