import { data, Link, useLocation } from "react-router";
import { AdminTable, EmptyList, useDeleteQuestions } from "~/components/admin/admin-list";
import { PageRow } from "~/components/admin/page-row";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { Pagination } from "~/components/site/pagination";
import { FlashNotice } from "~/components/admin/flash-notice";
import { pagePathname, requireAdmin, writerOf } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { deleteFromList } from "~/lib/list-delete.server";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { queryText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/pages";

const PAGE_LIST_COLUMNS = ["Title", "Address", "Status", "Last edited", "Actions"] as const;
const LOAD_FAILED_MESSAGE = "Failed to load pages. Please try again.";

/** The list at its page number: where a delete, confirmed or not, comes back to. */
function listPath(pathname: string, pageNumber: string): string {
  const number = Number(pageNumber);
  return Number.isInteger(number) && number > 1 ? `${pathname}?${new URLSearchParams({ page: pageNumber })}` : pathname;
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const pageNumber = requestedPage(request);
    const flash = await takeFlash(request);
    const page = requireExistingPage(await services.pages.listPages(pageNumber));
    return data(
      {
        confirmId: queryText(new URL(request.url), "confirm") || null,
        flash: flash.message,
        page: pageInfo(page),
        pages: page.items.map(({ id, slug, title, published, editedAt }) => ({ id, slug, title, published, editedAt })),
      },
      { headers: flash.headers },
    );
  },
);

export async function action(args: Route.ActionArgs) {
  return deleteFromList(args, {
    remove: async (id, user, services) => {
      if (!isPostId(id)) return false;
      await services.pages.deletePage(id, writerOf(user));
      return true;
    },
    back: (url) => listPath(pagePathname(url), queryText(url, "page")),
    deleted: "page-deleted",
    gone: "PAGE_NOT_FOUND",
  });
}

export default function AdminPages({ loaderData }: Route.ComponentProps) {
  const { pages, page, confirmId, flash } = loaderData;
  const { pathname, search } = useLocation();
  const pageNumber = new URLSearchParams(search).get("page") ?? "";
  const question = useDeleteQuestions({
    confirmId,
    listHref: listPath(pathname, pageNumber),
    confirmHref: (id) =>
      `${pathname}?${new URLSearchParams({ ...(pageNumber ? { page: pageNumber } : {}), confirm: id })}`,
  });

  return (
    <>
      <title>Pages · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Pages</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Pages of their own at /your-slug, drafts included, by title.
          </p>
        </div>
        <Link
          to="/admin/pages/new"
          className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-950"
        >
          New page
        </Link>
      </div>

      <FlashNotice message={flash} className="mt-6" />

      {pages.length === 0 ? (
        <EmptyList className="mt-10">No pages yet. Create your first page!</EmptyList>
      ) : (
        <AdminTable columns={PAGE_LIST_COLUMNS} cellClass="px-4 py-3" className="mt-6">
          {pages.map((item) => (
            <PageRow key={item.id} page={item} question={question(item.id)} />
          ))}
        </AdminTable>
      )}
      <div className="mt-6">
        <Pagination page={page} label="Pages" previousText="Previous" nextText="Next" />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
