import { data, Form, Link, redirect, useFetcher, useLocation } from "react-router";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { appContext } from "#server/request-context.ts";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate, truncate } from "~/lib/format";
import { readFormData } from "~/lib/forms.server";
import { requestedPage } from "~/lib/pagination.server";
import { postPath } from "~/lib/post-card-data";
import { withRouteErrors } from "~/lib/route-errors.server";
import { useHydrated } from "~/lib/use-hydrated";
import { COMMENT_STATUSES, type CommentStatus, MODERATION_ACTIONS, type ModerationAction } from "#domain/comment.ts";
import { formText, formTexts, queryText } from "#domain/forms.ts";
import type { Route } from "./+types/comments";

const QUERY_MAX = 200;
/** Longer comments show this much, and the rest behind "Show all". */
const CLIP_AT = 140;
/** Enough of the address hash to tell addresses apart at a glance; never the address itself. */
const HASH_SHOWN = 10;

const TAB_LABELS: Record<CommentStatus, string> = { pending: "Pending", approved: "Approved", spam: "Spam" };
const ACTION_LABELS: Record<ModerationAction, string> = {
  approve: "Approve",
  unapprove: "Unapprove",
  spam: "Mark as spam",
  delete: "Delete",
};
/** What each tab offers: every action moves a comment out of the tab it is in. */
const ACTIONS_BY_TAB: Record<CommentStatus, ModerationAction[]> = {
  pending: ["approve", "spam", "delete"],
  approved: ["unapprove", "spam", "delete"],
  spam: ["approve", "delete"],
};

function isStatus(value: string | null): value is CommentStatus {
  return (COMMENT_STATUSES as readonly string[]).includes(value ?? "");
}

function isAction(value: string): value is ModerationAction {
  return (MODERATION_ACTIONS as readonly string[]).includes(value);
}

interface ListParams {
  status?: CommentStatus;
  post?: string;
  q?: string;
  page?: number;
}

function listHref({ status, post, q, page }: ListParams): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (post) params.set("post", post);
  if (q) params.set("q", q);
  if (page && page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/admin/comments?${search}` : "/admin/comments";
}

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load comments. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const url = new URL(request.url);
    const requested = url.searchParams.get("status");
    // Through queryText, like every query parameter: a NUL in a search is refused by PostgreSQL.
    const q = queryText(url, "q").trim().slice(0, QUERY_MAX);
    const post = queryText(url, "post").trim() || undefined;
    // A `?page=` that names no page (abc, 0, 1.5) is a 404, as on every list; one past the end
    // shows the last page, where the writer lands after moderating the last comment of it.
    const page = requestedPage(request);
    // The tab chosen for a bare URL goes into the address, so approving the last pending comment
    // keeps the writer on Pending instead of swapping the list under them.
    if (!isStatus(requested)) {
      const status = await services.comments.openingModerationTab({ postId: post, search: q });
      return redirect(listHref({ status, post, q, page }));
    }
    const listing = await services.comments.listForModeration({ status: requested, postId: post, search: q, page });
    return {
      ...listing,
      q,
      post,
      comments: listing.comments.map((comment) => ({
        ...comment,
        ipHash: comment.ipHash?.slice(0, HASH_SHOWN) ?? null,
      })),
    };
  },
);

/** Without JavaScript the browser comes back to the list it was on; with it, the fetcher stays in place. */
export const action = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to update comments. Please try again." },
  async ({ request, context }: Route.ActionArgs) => {
    requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const formData = await readFormData(request);
    const intent = formText(formData, "intent");
    if (!isAction(intent)) throw data({ message: "Choose an action" }, { status: 400 });
    const changed = await services.comments.moderate(intent, formTexts(formData, "id"));
    if (formText(formData, "inPlace") === "1") return { changed };
    const back = formText(formData, "back");
    return redirect(back.startsWith("/admin/comments") ? back : "/admin/comments", 303);
  },
);

type Listing = Route.ComponentProps["loaderData"];
type ListedComment = Listing["comments"][number];

const tableCell = "px-3 py-3 align-top";

export default function AdminComments({ loaderData }: Route.ComponentProps) {
  const { status, counts, page, pageCount, comments, q, post } = loaderData;
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  const hydrated = useHydrated();
  const bulk = useFetcher<typeof action>({ key: "bulk-moderation" });
  const bulkIds = new Set(bulk.state !== "idle" ? (bulk.formData?.getAll("id") ?? []) : []);
  const visible = comments.filter((comment) => !bulkIds.has(comment.id));

  return (
    <>
      <title>Comments · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Comments</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {post ? "Comments on one post, newest first. " : "Newest first. "}
            {post ? (
              <Link to={listHref({ status })} className="font-medium text-indigo-700 underline dark:text-indigo-300">
                Show comments on every post
              </Link>
            ) : null}
          </p>
        </div>
        <Link
          to="/admin/comments/settings"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
        >
          Comment settings
        </Link>
      </div>

      <nav aria-label="Comment status" className="mt-6 border-b border-slate-200 dark:border-slate-800">
        <ul className="-mb-px flex gap-1">
          {COMMENT_STATUSES.map((tab) => (
            <li key={tab}>
              <Link
                to={listHref({ status: tab, post, q })}
                aria-current={tab === status ? "page" : undefined}
                className={`inline-block border-b-2 px-4 py-2 text-sm font-medium ${
                  tab === status
                    ? "border-indigo-600 text-indigo-800 dark:border-indigo-300 dark:text-indigo-200"
                    : "border-transparent text-slate-700 hover:border-slate-400 dark:text-slate-300"
                }`}
              >
                {TAB_LABELS[tab]} ({counts[tab]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <Form method="get" action="/admin/comments" role="search" className="mt-4 flex gap-2">
        <input type="hidden" name="status" value={status} />
        {post ? <input type="hidden" name="post" value={post} /> : null}
        <label htmlFor="comment-search" className="sr-only">
          Search comments by author or text
        </label>
        <input
          id="comment-search"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={QUERY_MAX}
          placeholder="Search by author or text"
          className="w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2 text-base sm:text-sm dark:border-slate-500 dark:bg-slate-900"
        />
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
        >
          Search
        </button>
      </Form>

      {visible.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No {TAB_LABELS[status].toLowerCase()} comments{q ? " match your search" : ""}.
        </p>
      ) : (
        <>
          <bulk.Form method="post" id="bulk-moderation" className="mt-4 flex flex-wrap items-center gap-2">
            <input type="hidden" name="back" value={back} />
            {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
            <span className="text-sm font-medium">With the selected comments:</span>
            {ACTIONS_BY_TAB[status].map((intent) => (
              <button
                key={intent}
                type="submit"
                name="intent"
                value={intent}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
              >
                {ACTION_LABELS[intent]} selected
              </button>
            ))}
          </bulk.Form>
          <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800">
              <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-3 py-3">
                    <span className="sr-only">Select</span>
                  </th>
                  {["Author", "Comment", "Post", "Date", "Address", "Held because", "Actions"].map((column) => (
                    <th key={column} scope="col" className="px-3 py-3">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {visible.map((comment) => (
                  <CommentRow key={comment.id} comment={comment} status={status} back={back} hydrated={hydrated} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      {pageCount > 1 ? (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
          {page > 1 ? (
            <Link
              to={listHref({ status, post, q, page: page - 1 })}
              className="font-medium text-indigo-700 underline dark:text-indigo-300"
            >
              Newer comments
            </Link>
          ) : (
            <span />
          )}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link
              to={listHref({ status, post, q, page: page + 1 })}
              className="font-medium text-indigo-700 underline dark:text-indigo-300"
            >
              Older comments
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </>
  );
}

interface CommentRowProps {
  comment: ListedComment;
  status: CommentStatus;
  back: string;
  hydrated: boolean;
}

/** One row with its own fetcher: while its action is on the way, the row is already gone from the tab. */
function CommentRow({ comment, status, back, hydrated }: CommentRowProps) {
  const fetcher = useFetcher<typeof action>();
  if (fetcher.state !== "idle" && fetcher.formData) return null;
  const clipped = comment.content.length > CLIP_AT;
  return (
    <tr className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className={tableCell}>
        <input
          type="checkbox"
          name="id"
          value={comment.id}
          form="bulk-moderation"
          aria-label={`Select the comment by ${comment.author}`}
          className="h-4 w-4 accent-indigo-600"
        />
      </td>
      <td className={`${tableCell} font-medium whitespace-nowrap`}>{comment.author}</td>
      <td className={`${tableCell} max-w-md break-words whitespace-pre-line`}>
        {clipped ? (
          <details>
            <summary className="cursor-pointer">{truncate(comment.content, CLIP_AT)}</summary>
            <p className="mt-2">{comment.content}</p>
          </details>
        ) : (
          comment.content
        )}
      </td>
      <td className={tableCell}>
        <Link to={postPath(comment.postSlug)} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          {truncate(comment.postTitle, 40)}
        </Link>
      </td>
      <td className={`${tableCell} whitespace-nowrap`}>
        <time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>
      </td>
      <td className={tableCell}>
        {comment.ipHash ? <code title="Salted hash of the address">{comment.ipHash}</code> : "—"}
      </td>
      <td className={tableCell}>{comment.heldReason ?? "—"}</td>
      <td className={tableCell}>
        <fetcher.Form method="post" className="flex flex-wrap gap-1">
          <input type="hidden" name="id" value={comment.id} />
          <input type="hidden" name="back" value={back} />
          {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
          {ACTIONS_BY_TAB[status].map((intent) => (
            <button
              key={intent}
              type="submit"
              name="intent"
              value={intent}
              className={`rounded px-2 py-1 font-medium hover:underline ${
                intent === "delete" || intent === "spam"
                  ? "text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
                  : "text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
              }`}
            >
              {ACTION_LABELS[intent]}
              <span className="sr-only"> the comment by {comment.author}</span>
            </button>
          ))}
        </fetcher.Form>
      </td>
    </tr>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback="Failed to load comments. Please try again." />;
}
