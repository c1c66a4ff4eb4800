import { useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation, useSubmit } from "react-router";
import { sectionLabel } from "~/components/admin/sections";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { Pagination } from "~/components/site/pagination";
import { appContext } from "#server/request-context.ts";
import { actorOf, pagePathname, requireAdmin } from "~/lib/auth.server";
import { setFlash, takeFlash } from "~/lib/flash.server";
import { formatDate, formatDateTime, truncate } from "~/lib/format";
import { readFormData } from "~/lib/forms.server";
import { postPath } from "~/lib/post-card-data";
import type { DomainError } from "#domain/errors.ts";
import { formText, queryText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { answerDomainErrors, type DomainFailure, throwAsRouteError, withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/posts";

const POST_LIST_COLUMNS = ["Title", "Author", "Category", "Date", "Status", "Actions"] as const;

/** docs/spec.md §9: admin titles are cut at 40 characters. */
const TITLE_MAX = 40;
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
    return data(
      {
        query,
        confirmId: queryText(url, "confirm") || null,
        flash: flash.message,
        page: pageInfo(page),
        posts: page.items.map(({ id, slug, title, author, category, updatedAt, published, status, publishAt }) => ({
          id,
          slug,
          title,
          author,
          category,
          updatedAt,
          published,
          status,
          publishAt,
        })),
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

type ListedPost = Route.ComponentProps["loaderData"]["posts"][number];

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
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
        >
          Search
        </button>
      </Form>

      {posts.length === 0 ? (
        <p className="mt-10 rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No posts found. Create your first post!
        </p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <table className="min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
              <tr>
                {POST_LIST_COLUMNS.map((column) => (
                  <th key={column} scope="col" className="px-4 py-3">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {posts.map((post) => (
                <PostRow
                  key={post.id}
                  post={post}
                  query={query}
                  pathname={pathname}
                  confirming={confirming === post.id}
                  deleting={deleting && navigation.formData?.get("id") === post.id}
                  onConfirm={() => setConfirming(post.id)}
                  onCancel={() => setConfirming(null)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="mt-6">
        <Pagination page={page} label="Posts" />
      </div>
    </>
  );
}

interface PostRowProps {
  post: ListedPost;
  query: string;
  pathname: string;
  confirming: boolean;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

const actionLinkClass =
  "rounded px-2 py-1 font-medium text-indigo-700 hover:bg-indigo-50 hover:underline dark:text-indigo-300 dark:hover:bg-indigo-950";

function PostRow({ post, query, pathname, confirming, deleting, onConfirm, onCancel }: PostRowProps) {
  const confirmHref = `${pathname}?${new URLSearchParams({ ...(query ? { q: query } : {}), confirm: post.id })}`;
  return (
    <tr className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className="min-w-48 px-4 py-3 font-medium" title={post.title}>
        {truncate(post.title, TITLE_MAX)}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">{post.author}</td>
      <td className="px-4 py-3 whitespace-nowrap">{post.category}</td>
      <td className="px-4 py-3 whitespace-nowrap">
        <time dateTime={post.updatedAt}>{formatDate(post.updatedAt)}</time>
      </td>
      <td className="px-4 py-3">
        <span
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
            post.status === "Published"
              ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200"
              : post.status === "Scheduled"
                ? "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200"
                : "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200"
          }`}
        >
          {post.status}
        </span>
        {post.status === "Scheduled" && post.publishAt ? (
          <span className="mt-1 block text-xs whitespace-nowrap text-slate-600 dark:text-slate-400">
            for <time dateTime={post.publishAt}>{formatDateTime(post.publishAt)}</time>
          </span>
        ) : null}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        <div className="flex items-center gap-1">
          <Link to={`/admin/posts/edit/${post.id}`} className={actionLinkClass}>
            Edit<span className="sr-only"> {post.title}</span>
          </Link>
          <a href={postPath(post.slug)} target="_blank" rel="noopener noreferrer" className={actionLinkClass}>
            View<span className="sr-only"> {post.title} (opens in a new tab)</span>
          </a>
          {confirming ? (
            <span className="flex items-center gap-1 rounded bg-red-50 px-2 py-0.5 dark:bg-red-950">
              <span className="font-medium text-red-800 dark:text-red-200">Confirm?</span>
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={post.id} />
                <input type="hidden" name="q" value={query} />
                <button
                  type="submit"
                  disabled={deleting}
                  className="rounded bg-red-600 px-2 py-0.5 font-semibold text-white hover:bg-red-700 disabled:opacity-70"
                >
                  Yes
                </button>
              </Form>
              <Link
                to={listPath(pathname, query)}
                preventScrollReset
                onClick={(event) => {
                  event.preventDefault();
                  onCancel();
                }}
                className="rounded px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                No
              </Link>
            </span>
          ) : (
            <Link
              to={confirmHref}
              preventScrollReset
              onClick={(event) => {
                event.preventDefault();
                onConfirm();
              }}
              className="rounded px-2 py-1 font-medium text-red-700 hover:bg-red-50 hover:underline dark:text-red-300 dark:hover:bg-red-950"
            >
              Delete<span className="sr-only"> {post.title}</span>
            </Link>
          )}
        </div>
      </td>
    </tr>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback="Failed to load posts. Please try again." />;
}
