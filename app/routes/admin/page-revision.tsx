import { REVISION_LOAD_FAILED_MESSAGE, RevisionView } from "~/components/admin/editor/revision-view";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { restoreRevisionAction, revisionLoader } from "~/lib/writers-desk.server";
import type { Route } from "./+types/page-revision";

export const loader = revisionLoader("page");

export const action = restoreRevisionAction("page");

export default function PageRevision({ loaderData }: Route.ComponentProps) {
  return <RevisionView comparison={loaderData.comparison} editorHref={loaderData.editorHref} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={REVISION_LOAD_FAILED_MESSAGE} />;
}
