import { REVISION_LOAD_FAILED_MESSAGE, RevisionView } from "~/components/admin/editor/revision-view";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { restoreRevisionAction, revisionLoader } from "~/lib/writers-desk.server";
import type { Route } from "./+types/post-revision";

export const loader = revisionLoader("post");

export const action = restoreRevisionAction("post");

export default function PostRevision({ loaderData }: Route.ComponentProps) {
  return <RevisionView comparison={loaderData.comparison} editorHref={loaderData.editorHref} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={REVISION_LOAD_FAILED_MESSAGE} />;
}
