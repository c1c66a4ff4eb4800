import { data, unstable_useRoute as useRoute, useNavigation } from "react-router";
import { AdminTable, EmptyList, ListSearch } from "~/components/admin/admin-list";
import { Notice, Panel } from "~/components/admin/panel";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { AddSubscriberForm, ImportSubscribersForm } from "~/components/admin/subscriber-forms";
import { SubscriberImportProgress, SubscriberImportReport } from "~/components/admin/subscriber-import";
import {
  SUBSCRIBER_CELL_CLASS,
  SUBSCRIBER_COLUMNS,
  SubscriberPager,
  SubscriberRow,
  SubscriberTabs,
  subscriberStateLabel,
} from "~/components/admin/subscriber-list";
import { FormError } from "~/components/ui/field";
import { textLinkStyles } from "~/components/ui/styles";
import { requireOwner } from "~/lib/auth.server";
import { takeFlash } from "~/lib/flash.server";
import { PAGE_NOT_FOUND_MESSAGE } from "~/lib/pagination.server";
import type { RouteErrorData } from "~/lib/route-errors.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { queryText } from "#domain/forms.ts";
import { SUBSCRIBER_STATES, type SubscriberState } from "#domain/newsletter.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers";

const QUERY_MAX = 200;
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z),([A-Za-z0-9_-]{1,64})$/;

function pageNotFound(): never {
  throw data<RouteErrorData>({ message: PAGE_NOT_FOUND_MESSAGE }, { status: 404 });
}

/** `?state=` (active when absent) and `?after=`; anything that names no list or page is a 404, as on every list. */
function readListParams(url: URL): { state: SubscriberState; after: { createdAt: string; id: string } | undefined } {
  const state = queryText(url, "state") || "active";
  if (!(SUBSCRIBER_STATES as readonly string[]).includes(state)) pageNotFound();
  const after = queryText(url, "after");
  const cursor = after ? (CURSOR.exec(after) ?? pageNotFound()) : undefined;
  return {
    state: state as SubscriberState,
    after: cursor ? { createdAt: cursor[1]!, id: cursor[2]! } : undefined,
  };
}

/** The list holds personal data, so it is the owner's alone, like Users and Settings (docs/decisions/0014). */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load subscribers. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    requireOwner({ request, context });
    const url = new URL(request.url);
    const { state, after } = readListParams(url);
    const q = queryText(url, "q").trim().slice(0, QUERY_MAX);
    const { subscribers } = context.get(appContext).services;
    const { counts, page } = await subscribers.listPage({ state, search: q, after });
    const importStatus = await subscribers.importStatus();
    const flash = await takeFlash(request);
    return data(
      {
        state,
        q,
        after: after && `${after.createdAt},${after.id}`,
        next: page.next && `${page.next.createdAt},${page.next.id}`,
        counts,
        subscribers: page.items.map(({ id, email, source, createdAt }) => ({ id, email, source, createdAt })),
        confirmId: queryText(url, "confirm") || undefined,
        notice: flash.message,
        importStatus,
      },
      { headers: flash.headers },
    );
  },
);

/**
 * Adding posts to subscribers-add.tsx, removing to subscribers-remove.tsx, the CSV to
 * subscribers-import.tsx; a refusal renders this page at the child's address. An import runs in
 * the background: its progress shows on top, its report in the import's panel.
 */
export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const { state, q, after, next, counts, subscribers, confirmId, notice, importStatus } = loaderData;
  const busy = useNavigation().state === "submitting";
  const addResult = useRoute("routes/admin/subscribers-add")?.actionData;
  const removeResult = useRoute("routes/admin/subscribers-remove")?.actionData;
  const importResult = useRoute("routes/admin/subscribers-import")?.actionData;
  const list = { state, q, after };
  return (
    <>
      <title>Subscribers · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Subscribers</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Who gets new posts by email, newest first. Only the owner sees this list.
          </p>
        </div>
        <a href="/admin/subscribers/export.csv" download className={textLinkStyles}>
          Export CSV
        </a>
      </div>

      <div className="mt-6 space-y-4">
        {/* A refusal that follows a notice is not a reload, so the notice is hidden by hand. */}
        <Notice message={addResult || removeResult || importResult ? undefined : notice} />
        <FormError message={removeResult?.formError} />
        <SubscriberImportProgress status={importStatus} />
      </div>

      <SubscriberTabs state={state} counts={counts} q={q} />

      <ListSearch
        action="/admin/subscribers"
        id="subscriber-search"
        label="Search subscribers by email"
        placeholder="Search by email"
        query={q}
        maxLength={QUERY_MAX}
        keep={{ state: state === "active" ? undefined : state }}
      />

      {subscribers.length === 0 ? (
        <EmptyList className="mt-8">
          No {subscriberStateLabel(state).toLowerCase()} subscribers{q ? " match your search" : ""}.
        </EmptyList>
      ) : (
        <AdminTable columns={SUBSCRIBER_COLUMNS} cellClass={SUBSCRIBER_CELL_CLASS} className="mt-4">
          {subscribers.map((subscriber) => (
            <SubscriberRow
              key={subscriber.id}
              subscriber={subscriber}
              list={list}
              confirming={confirmId === subscriber.id}
              busy={busy}
            />
          ))}
        </AdminTable>
      )}
      <SubscriberPager list={list} next={next} />

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Panel id="add-subscriber-heading" title="Add a subscriber">
          <AddSubscriberForm result={addResult} busy={busy} />
        </Panel>
        <Panel id="import-subscribers-heading" title="Import a CSV">
          <ImportSubscribersForm result={importResult} busy={busy} />
          {/* A file just refused is what the writer reads about, not the import before. */}
          <SubscriberImportReport status={importResult ? undefined : importStatus} />
        </Panel>
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback="Failed to load subscribers. Please try again." />;
}
