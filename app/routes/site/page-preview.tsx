import { data } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { PageArticle } from "~/components/site/page-article";
import { errorMeta, pageMeta } from "~/lib/meta";
import { withRouteErrors } from "~/lib/route-errors.server";
import { PRIVATE_PREVIEW_HEADERS, requirePreviewToken } from "~/lib/writers-desk.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/page-preview";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load page. Please try again." },
  async ({ params, context }: Route.LoaderArgs) => {
    const page = await context.get(appContext).services.pages.getPreview(requirePreviewToken(params.token));
    return data(
      {
        page: {
          title: page.title,
          description: page.description,
          contentHtml: page.contentHtml,
          // A draft has never been public: its date would be the save's, as it will be when published.
          lastUpdated: page.showLastUpdated ? (page.editedAt ?? undefined) : undefined,
        },
      },
      { headers: PRIVATE_PREVIEW_HEADERS },
    );
  },
);

export const headers: Route.HeadersFunction = () => PRIVATE_PREVIEW_HEADERS;

export const meta: Route.MetaFunction = ({ loaderData, error }) => [
  ...(error || !loaderData
    ? errorMeta(error)
    : pageMeta(`Preview: ${loaderData.page.title}`, loaderData.page.description || undefined)),
  { name: "robots", content: "noindex" },
];

export default function PagePreview({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <p
        role="note"
        className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        Preview: this page is not published yet. Please do not share this link.
      </p>
      <PageArticle title={page.title} contentHtml={page.contentHtml} lastUpdated={page.lastUpdated} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
