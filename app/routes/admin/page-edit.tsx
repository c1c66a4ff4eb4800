import { EDITOR_LOAD_FAILED_MESSAGES } from "~/components/admin/editor/edited-item";
import { PreviewLinkPanel } from "~/components/admin/editor/preview-link-panel";
import { ViewItemLink } from "~/components/admin/editor/view-item-link";
import { RevisionList } from "~/components/admin/editor/revision-list";
import { EditorNote, UnsavedNotice } from "~/components/admin/editor/unsaved-notice";
import { PageForm } from "~/components/admin/page-form";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { FlashNotice } from "~/components/admin/flash-notice";
import { editorAction, editorLoader, PAGE_EDITOR } from "~/lib/editor.server";
import { showsOriginalDesign } from "#domain/page.ts";
import type { Route } from "./+types/page-edit";

export const loader = editorLoader(PAGE_EDITOR, async (page) => ({ originalDesign: showsOriginalDesign(page) }));

export const action = editorAction(PAGE_EDITOR);

export default function AdminPageEdit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <title>Edit Page · Admin</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Page</h1>
        <ViewItemLink
          item={{ kind: "page", id: loaderData.id }}
          slug={loaderData.slug}
          isPublic={loaderData.published}
        />
      </div>
      <FlashNotice
        message={loaderData.flash}
        className="mb-6"
        action={
          loaderData.stayed ? (
            <ViewItemLink
              item={{ kind: "page", id: loaderData.id }}
              slug={loaderData.slug}
              isPublic={loaderData.published}
            />
          ) : null
        }
      />
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
          draft={!loaderData.published}
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
  return <RouteErrorMessage error={error} fallback={EDITOR_LOAD_FAILED_MESSAGES.page} />;
}
