import { useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation, useSubmit } from "react-router";
import { AdminTable, EmptyList, SearchButton } from "~/components/admin/admin-list";
import { emailSummary } from "~/components/admin/editor/newsletter-panel";
import { PostRow } from "~/components/admin/post-row";
import { sectionLabel } from "~/components/admin/sections";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { Pagination } from "~/components/site/pagination";
import { appContext } from "#server/request-context.ts";
import { actorOf, pagePathname, requireAdmin } from "~/lib/auth.server";
import { setFlash, takeFlash } from "~/lib/flash.server";
import { readFormData } from "~/lib/forms.server";
import type { DomainError } from "#domain/errors.ts";
import { formText, queryText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { answerDomainErrors, type DomainFailure, throwAsRouteError, withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/posts";

const POST_LIST_COLUMNS = ["Title", "Author", "Category", "Date", "Status", "Actions"] as const;

const QUERY_MAX = 200;
const SEARCH_DEBOUNCE_MS = 300;

function listPath(pathname: string, query: string): string {
  return query ? `${pathname}?${new URLSearchParams({ q: query })}` : pathname;
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const url = new URL(request.url);
    const query = queryText(url, "q").trim().slice(0, QUERY_MAX);
    const pageNumber = requestedPage(request);
    const flash = await takeFlash(request);
    const page = await services.posts.listAllPosts(query, pageNumber);
    requireExistingPage(page);
    const sends = await services.postNewsletter.findSends(page.items.map((post) => post.id));
    return data(
      {
        query,
        confirmId: queryText(url, "confirm") || null,
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

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const formData = await readFormData(request);
  if (formText(formData, "intent") !== "delete") {
    throw data({ message: "Unknown action" }, { status: 400 });
  }
  const id = formText(formData, "id");
  const back = listPath(pagePathname(new URL(request.url)), formText(formData, "q").trim().slice(0, QUERY_MAX));
  // docs/spec.md §8: a failed delete is logged only (describeDomainError records the outage);
  // the admin sees the list as it was.
  const answer = (_failure: DomainFailure, error: DomainError) => {
    if (error.code !== "DATABASE_UNAVAILABLE") throwAsRouteError(error, context);
    return false;
  };
  const deleted = await answerDomainErrors(
    context,
    { answer },
    async () => isPostId(id) && services.posts.deletePost(id, actorOf(user)),
  );
  if (deleted) return redirect(back, { headers: { "Set-Cookie": await setFlash(request, "deleted") } });
  return redirect(back);
}

export default function AdminPosts({ loaderData }: Route.ComponentProps) {
  const { posts, page, query, confirmId, flash } = loaderData;
  const { pathname } = useLocation();
  const label = sectionLabel(pathname);
  const navigation = useNavigation();
  const submit = useSubmit();
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The confirmation starts from ?confirm= (the no-JS path) and is then toggled in place.
  const [confirming, setConfirming] = useState(confirmId);
  const [confirmIdSeen, setConfirmIdSeen] = useState(confirmId);
  if (confirmId !== confirmIdSeen) {
    setConfirmIdSeen(confirmId);
    setConfirming(confirmId);
  }

  const searchAsYouType = (form: HTMLFormElement) => {
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(
      () => submit(form, { replace: true, preventScrollReset: true }),
      SEARCH_DEBOUNCE_MS,
    );
  };

  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";

  return (
    <>
      <title>{`${label} · Admin`}</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{label}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Every post, drafts included, newest first.</p>
        </div>
        <Link
          to="/admin/posts/new"
          className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-950"
        >
          Create New Post
        </Link>
      </div>

      {flash ? (
        <p
          role="status"
          className="mt-6 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {flash}
        </p>
      ) : null}

      <Form
        method="get"
        action={pathname}
        role="search"
        className="mt-6 flex gap-2"
        onSubmit={() => clearTimeout(searchTimer.current)}
      >
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
        <AdminTable columns={POST_LIST_COLUMNS} cellClass="px-4 py-3" className="mt-6">
          {posts.map((post) => (
            <PostRow
              key={post.id}
              post={post}
              query={query}
              pathname={pathname}
              listHref={listPath(pathname, query)}
              confirming={confirming === post.id}
              deleting={deleting && navigation.formData?.get("id") === post.id}
              onConfirm={() => setConfirming(post.id)}
              onCancel={() => setConfirming(null)}
            />
          ))}
        </AdminTable>
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
