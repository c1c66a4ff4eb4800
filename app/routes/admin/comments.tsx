import { data, Link, redirect, useActionData, useFetcher, useLocation } from "react-router";
import { AdminTable, type AdminTableColumn, EmptyList, ListSearch, ListTabs } from "~/components/admin/admin-list";
import {
  COMMENT_CELL_CLASS,
  CommentPager,
  CommentRow,
  ModerationButtons,
  TAB_LABELS,
} from "~/components/admin/comment-moderation";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { appContext } from "#server/request-context.ts";
import { FlashNotice } from "~/components/admin/flash-notice";
import type { ReplyFormResult } from "~/components/admin/comment-reply-form";
import { requireAdmin } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { replyFromModeration } from "~/lib/comment-reply.server";
import { readFormData } from "~/lib/forms.server";
import { requestedPage } from "~/lib/pagination.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { useHydrated } from "~/lib/use-hydrated";
import {
  COMMENT_STATUSES,
  type CommentStatus,
  MODERATION_ACTIONS,
  type ModerationAction,
  MODERATOR_REPLY_INTENT,
} from "#domain/comment.ts";
import { formText, formTexts, queryText } from "#domain/forms.ts";
import { addressMarks } from "#domain/address-mark.ts";
import type { Route } from "./+types/comments";

const QUERY_MAX = 200;
const COMMENT_COLUMNS: readonly AdminTableColumn[] = [
  { label: "Select", hidden: true },
  "Author",
  "Comment",
  "Post",
  "Date",
  "Address",
  "Held because",
  "Actions",
];

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
    const flash = await takeFlash(request);
    const marks = addressMarks(listing.comments);
    return data(
      {
        ...listing,
        q,
        post,
        notice: flash.message,
        // Never the address, nor its whole hash: a mark that tells this page's addresses apart.
        comments: listing.comments.map(({ ipHash: _hash, ...comment }) => ({
          ...comment,
          addressMark: marks.get(comment.id) ?? null,
        })),
      },
      { headers: flash.headers },
    );
  },
);

/** Without JavaScript the browser comes back to the list it was on; with it, the fetcher stays in place. */
export const action = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to update comments. Please try again." },
  async ({ request, context }: Route.ActionArgs) => {
    const user = requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const formData = await readFormData(request);
    const intent = formText(formData, "intent");
    const requestedBack = formText(formData, "back");
    const back = requestedBack.startsWith("/admin/comments") ? requestedBack : "/admin/comments";
    if (intent === MODERATOR_REPLY_INTENT) return replyFromModeration({ request, context }, formData, user, back);
    if (!isAction(intent)) throw data({ message: "Choose an action" }, { status: 400 });
    const changed = await services.comments.moderate(intent, formTexts(formData, "id"));
    if (formText(formData, "inPlace") === "1") return { changed };
    return redirect(back, 303);
  },
);

export default function AdminComments({ loaderData }: Route.ComponentProps) {
  const { status, counts, page, pageCount, comments, q, post, notice } = loaderData;
  const actionData = useActionData<typeof action>();
  const refusedReply = actionData && "values" in actionData ? (actionData as ReplyFormResult) : undefined;
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
        <div className="flex flex-wrap gap-2">
          <Link
            to="/admin/comments/settings"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
          >
            Comment settings
          </Link>
          <Link
            to="/admin/comments/webmention"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
          >
            Webmention settings
          </Link>
        </div>
      </div>

      <FlashNotice message={refusedReply ? undefined : notice} className="mt-6" />

      <ListTabs
        label="Comment status"
        tabs={COMMENT_STATUSES.map((tab) => ({
          key: tab,
          label: TAB_LABELS[tab],
          count: counts[tab],
          href: listHref({ status: tab, post, q }),
          current: tab === status,
        }))}
      />

      <ListSearch
        action="/admin/comments"
        id="comment-search"
        label="Search comments by author or text"
        placeholder="Search by author or text"
        query={q}
        maxLength={QUERY_MAX}
        keep={{ status, post }}
      />

      {visible.length === 0 ? (
        <EmptyList className="mt-8">
          No {TAB_LABELS[status].toLowerCase()} comments{q ? " match your search" : ""}.
        </EmptyList>
      ) : (
        <>
          <bulk.Form method="post" id="bulk-moderation" className="mt-4 flex flex-wrap items-center gap-2">
            <input type="hidden" name="back" value={back} />
            {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
            <span className="text-sm font-medium">With the selected comments:</span>
            <ModerationButtons
              status={status}
              buttonClass={() =>
                "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
              }
              label={(_intent, name) => <>{name} selected</>}
            />
          </bulk.Form>
          <AdminTable columns={COMMENT_COLUMNS} cellClass={COMMENT_CELL_CLASS} className="mt-3">
            {visible.map((comment) => (
              <CommentRow
                key={comment.id}
                comment={comment}
                status={status}
                back={back}
                hydrated={hydrated}
                replyResult={refusedReply?.values.replyTo === comment.id ? refusedReply : undefined}
              />
            ))}
          </AdminTable>
        </>
      )}

      <CommentPager
        page={page}
        pageCount={pageCount}
        hrefFor={(number) => listHref({ status, post, q, page: number })}
      />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback="Failed to load comments. Please try again." />;
}
