import { useRef } from "react";
import { data, Form, Link, useLocation, useSubmit } from "react-router";
import { AdminTable, EmptyList, SearchButton, useDeleteQuestions } from "~/components/admin/admin-list";
import { emailSummary } from "~/components/admin/editor/newsletter-panel";
import { PostRow } from "~/components/admin/post-row";
import { DashboardSummaryPanel } from "~/components/admin/dashboard-summary";
import { sectionLabel } from "~/components/admin/sections";
import { textLinkStyles } from "~/components/ui/styles";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { Pagination } from "~/components/site/pagination";
import { FlashNotice } from "~/components/admin/flash-notice";
import { BulkBar, BulkOutcomeNotice, BulkProblem, BulkQuestionPanel } from "~/components/admin/post-bulk";
import { NOTHING_SELECTED_MESSAGE } from "#domain/post-bulk.ts";
import { appContext } from "#server/request-context.ts";
import { actorOf, pagePathname, requireAdmin } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { loadDashboardSummary } from "~/lib/dashboard.server";
import { deleteFromList } from "~/lib/list-delete.server";
import { readFormData } from "~/lib/forms.server";
import { changePostsFromList, readBulkQuestion, tickedIds } from "~/lib/post-bulk.server";
import { formText, queryText } from "#domain/forms.ts";
import { isPostId, POST_LIST_FILTERS, type PostListFilter, readPostListFilter } from "#domain/post.ts";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/posts";

const POST_LIST_COLUMNS = ["Title", "Author", "Category", "Date", "Status", "Actions"] as const;

const QUERY_MAX = 200;
const SEARCH_DEBOUNCE_MS = 300;

/** What the list shows, kept by each of its links and forms: a search, and the Drafts or Scheduled filter. */
function listParams(query: string, status: PostListFilter | null | undefined): Record<string, string> {
  return { ...(query ? { q: query } : {}), ...(status ? { status } : {}) };
}

function listPath(pathname: string, shown: Record<string, string>): string {
  const params = new URLSearchParams(shown);
  return params.size > 0 ? `${pathname}?${params}` : pathname;
}

/** Where the list's own forms post: the Dashboard is an index route, which React Router names with `?index`. */
function listAction(pathname: string, shown: Record<string, string>): string {
  return `${pathname}?${new URLSearchParams({ ...(pathname === "/admin" ? { index: "" } : {}), ...shown })}`;
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const user = requireAdmin({ request, context });
    const { services, site } = context.get(appContext);
    const url = new URL(request.url);
    const query = queryText(url, "q").trim().slice(0, QUERY_MAX);
    const pageNumber = requestedPage(request);
    const flash = await takeFlash(request);
    const status = readPostListFilter(queryText(url, "status"));
    const page = await services.posts.listAllPosts(query, pageNumber, status);
    requireExistingPage(page);
    const sends = await services.postNewsletter.findSends(page.items.map((post) => post.id));
    // The Dashboard is this list with the blog's figures above it (issue 35); Blog Posts is the list alone.
    const summary = pagePathname(url) === "/admin" ? await loadDashboardSummary(services, user, site.timeZone) : null;
    return data(
      {
        summary,
        query,
        status: status ?? null,
        confirmId: queryText(url, "confirm") || null,
        bulkQuestion: readBulkQuestion(url, page.items),
        ticked: tickedIds(url),
        flash: flash.message,
        page: pageInfo(page),
        posts: page.items.map(
          ({ id, slug, title, author, category, updatedAt, published, status, publishAt, newsletter }) => ({
            id,
            slug,
            title,
            author,
            category,
            updatedAt,
            published,
            status,
            publishAt,
            email: emailSummary(newsletter, sends.get(id)),
          }),
        ),
      },
      { headers: flash.headers },
    );
  },
);

export async function action(args: Route.ActionArgs) {
  // A copy is read for the intent, so each action below reads the form itself.
  const intent = formText(await readFormData(args.request.clone()), "intent");
  if (intent === "bulk") return changePostsFromList(args);
  return deleteFromList(args, {
    remove: async (id, user, services) => isPostId(id) && services.posts.deletePost(id, actorOf(user)),
    back: (url, formData) =>
      listPath(
        pagePathname(url),
        listParams(
          formText(formData, "q").trim().slice(0, QUERY_MAX),
          readPostListFilter(formText(formData, "status")),
        ),
      ),
    deleted: "deleted",
  });
}

export default function AdminPosts({ loaderData, actionData }: Route.ComponentProps) {
  const { posts, page, query, status, confirmId, flash, bulkQuestion, ticked, summary } = loaderData;
  const { pathname } = useLocation();
  const label = sectionLabel(pathname);
  const submit = useSubmit();
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shown = listParams(query, status);
  const question = useDeleteQuestions({
    confirmId,
    listHref: listPath(pathname, shown),
    confirmHref: (id) => `${pathname}?${new URLSearchParams({ ...shown, confirm: id })}`,
  });

  const searchAsYouType = (form: HTMLFormElement) => {
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(
      () => submit(form, { replace: true, preventScrollReset: true }),
      SEARCH_DEBOUNCE_MS,
    );
  };

  return (
    <>
      <title>{`${label} · Admin`}</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{label}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {status ? (
              <>
                {POST_LIST_FILTERS[status]} only, newest first.{" "}
                <Link to={pathname} className={textLinkStyles}>
                  Show every post
                </Link>
              </>
            ) : (
              "Every post, drafts included, newest first."
            )}
          </p>
        </div>
        <Link
          to="/admin/posts/new"
          className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-950"
        >
          Create New Post
        </Link>
      </div>

      {summary ? <DashboardSummaryPanel summary={summary} /> : null}
      <FlashNotice message={flash} className="mt-6" />
      {actionData && "outcome" in actionData ? <BulkOutcomeNotice lines={actionData.outcome} /> : null}
      {actionData && "errors" in actionData ? (
        <BulkProblem message={actionData.errors.id ?? actionData.errors.change ?? NOTHING_SELECTED_MESSAGE} />
      ) : null}

      <Form
        method="get"
        action={pathname}
        role="search"
        className="mt-6 flex gap-2"
        onSubmit={() => clearTimeout(searchTimer.current)}
      >
        {status ? <input type="hidden" name="status" value={status} /> : null}
        <label htmlFor="admin-post-search" className="sr-only">
          Search posts by title, author or category
        </label>
        <input
          id="admin-post-search"
          type="search"
          name="q"
          defaultValue={query}
          maxLength={QUERY_MAX}
          placeholder="Search by title, author or category"
          onChange={(event) => searchAsYouType(event.currentTarget.form!)}
          className="w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none sm:text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <SearchButton />
      </Form>

      {posts.length === 0 ? (
        <EmptyList className="mt-10">No posts found. Create your first post!</EmptyList>
      ) : (
        <>
          <BulkBar keep={shown} />
          {bulkQuestion ? (
            <BulkQuestionPanel
              question={bulkQuestion}
              action={listAction(pathname, shown)}
              listHref={listPath(pathname, shown)}
            />
          ) : null}
          <AdminTable columns={POST_LIST_COLUMNS} cellClass="px-4 py-3" className="mt-4">
            {posts.map((post) => (
              <PostRow
                key={post.id}
                post={post}
                keep={shown}
                question={question(post.id)}
                ticked={ticked.includes(post.id)}
              />
            ))}
          </AdminTable>
        </>
      )}
      <div className="mt-6">
        <Pagination page={page} label="Posts" />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback="Failed to load posts. Please try again." />;
}
