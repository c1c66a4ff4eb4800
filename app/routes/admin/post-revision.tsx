import { data, redirect } from "react-router";
import { editorPaths } from "~/components/admin/editor/edited-item";
import { compareRevision } from "~/components/admin/editor/revision-diff";
import { RevisionView } from "~/components/admin/editor/revision-view";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-revision";

const LOAD_FAILED_MESSAGE = "Failed to load revision";

function requireIds(params: Route.LoaderArgs["params"]) {
  if (!isPostId(params.id) || !isPostId(params.revisionId)) {
    throw data<RouteErrorData>({ message: LOAD_FAILED_MESSAGE }, { status: 404 });
  }
  return { id: params.id, revisionId: params.revisionId };
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
    return { editorHref: editorPaths({ kind: "post", id: post.id }).edit, comparison: compareRevision(revision, post) };
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

export default function PostRevision({ loaderData }: Route.ComponentProps) {
  return <RevisionView comparison={loaderData.comparison} editorHref={loaderData.editorHref} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
