import { diffWords } from "diff";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { buttonStyles } from "~/components/ui/styles";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formatDateTime } from "~/lib/format";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { isPostId } from "#domain/post.ts";
import { REVISION_KIND_LABELS } from "#domain/revision.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-revision";

const LOAD_FAILED_MESSAGE = "Failed to load revision";

function requireIds(params: Route.LoaderArgs["params"]) {
  if (!isPostId(params.id) || !isPostId(params.revisionId)) {
    throw data<RouteErrorData>({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
  }
  return { id: params.id, revisionId: params.revisionId };
}

/** Word-level changes from the revision to the current text: what restoring would bring back or remove. */
function wordDiff(from: string, to: string) {
  return diffWords(from, to).map((part) => ({
    text: part.value,
    change: part.added ? ("removed" as const) : part.removed ? ("restored" as const) : ("same" as const),
  }));
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context, params }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const { id, revisionId } = requireIds(params);
    const [post, revision] = await Promise.all([
      services.posts.getPostForEditing(id),
      services.posts.getRevision(id, revisionId),
    ]);
    return {
      postId: post.id,
      revision: {
        number: revision.number,
        kind: REVISION_KIND_LABELS[revision.kind],
        savedBy: revision.savedBy,
        createdAt: revision.createdAt,
        format: revision.format,
      },
      // Read as "what the current text becomes if this revision is restored".
      title: wordDiff(revision.title, post.title),
      content: wordDiff(revision.content, post.content),
      unchanged: revision.title === post.title && revision.content === post.content && revision.format === post.format,
    };
  },
);

export const action = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to restore. Please try again." },
  async ({ request, context, params }: Route.ActionArgs) => {
    const admin = requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const { id, revisionId } = requireIds(params);
    await services.posts.restoreRevision(id, revisionId, writerOf(admin));
    return redirect(`/admin/posts/edit/${id}`, { headers: { "Set-Cookie": await setFlash(request, "restored") } });
  },
);

type DiffPart = Route.ComponentProps["loaderData"]["content"][number];

function Diff({ parts, label }: { parts: DiffPart[]; label: string }) {
  return (
    <div
      aria-label={label}
      role="group"
      className="rounded-md border border-slate-200 bg-white p-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap dark:border-slate-800 dark:bg-slate-900"
    >
      {parts.map((part, index) =>
        part.change === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.change === "restored" ? (
          <ins
            key={index}
            className="bg-emerald-100 text-emerald-900 no-underline dark:bg-emerald-900/60 dark:text-emerald-100"
          >
            {part.text}
          </ins>
        ) : (
          <del key={index} className="bg-rose-100 text-rose-900 dark:bg-rose-900/60 dark:text-rose-100">
            {part.text}
          </del>
        ),
      )}
    </div>
  );
}

export default function PostRevision({ loaderData }: Route.ComponentProps) {
  const { postId, revision, title, content, unchanged } = loaderData;
  const navigation = useNavigation();
  const restoring = navigation.state === "submitting";
  return (
    <>
      <title>{`Revision ${revision.number} · Admin`}</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Revision {revision.number}</h1>
        <Link
          to={`/admin/posts/edit/${postId}`}
          className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          Back to the editor
        </Link>
      </div>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {revision.kind} by {revision.savedBy} on{" "}
        <time dateTime={revision.createdAt}>{formatDateTime(revision.createdAt)}</time> (
        {revision.format === "markdown" ? "Markdown" : "HTML"}).
      </p>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Differences from the current text:{" "}
        <ins className="bg-emerald-100 no-underline dark:bg-emerald-900/60">restoring brings back</ins> and{" "}
        <del className="bg-rose-100 dark:bg-rose-900/60">restoring removes</del>.
      </p>
      <h2 className="mt-6 mb-2 text-lg font-semibold">Title</h2>
      <Diff parts={title} label="Title differences" />
      <h2 className="mt-6 mb-2 text-lg font-semibold">Content</h2>
      <Diff parts={content} label="Content differences" />
      <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={restoring} className={buttonStyles.primary}>
          {restoring ? "Restoring…" : "Restore this revision"}
        </button>
        {unchanged ? (
          <span className="text-sm text-slate-600 dark:text-slate-400">This is the current text.</span>
        ) : null}
      </Form>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
