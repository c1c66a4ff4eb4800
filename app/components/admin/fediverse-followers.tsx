import { Form, Link, useLocation } from "react-router";
import { AdminTable } from "~/components/admin/admin-list";
import { formatDate } from "~/lib/format";
import type { FollowerAction } from "#domain/fediverse-admin.ts";
import type { Follower } from "#domain/fediverse.ts";

const CELL_CLASS = "px-4 py-3";
const SCREEN = "/admin/fediverse";

type ListedFollower = Pick<Follower, "id" | "actorUrl" | "handle" | "server" | "createdAt">;

/** The screen's address with one list's page changed (page 1 has none), the other list's kept. */
export function fediversePageHref(search: string, name: "page" | "posts", page: number): string {
  const params = new URLSearchParams(search);
  if (page === 1) params.delete(name);
  else params.set(name, String(page));
  const query = params.toString();
  return query ? `${SCREEN}?${query}` : SCREEN;
}

/** One button of a row: a POST form of its own, so it works without JavaScript. */
function FollowerButton({
  follower,
  intent,
  label,
  back,
  busy,
  tone,
}: {
  follower: ListedFollower;
  intent: FollowerAction;
  label: string;
  back: string;
  busy: boolean;
  tone: "primary" | "danger";
}) {
  return (
    <Form method="post" action="/admin/fediverse/followers" preventScrollReset>
      <input type="hidden" name="id" value={follower.id} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        className={`rounded px-2 py-1 font-medium hover:underline disabled:opacity-70 ${
          tone === "danger"
            ? "text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
            : "text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        }`}
      >
        {label}
        <span className="sr-only"> {follower.handle}</span>
      </button>
    </Form>
  );
}

function FollowerCells({ follower }: { follower: ListedFollower }) {
  return (
    <>
      <td className={`${CELL_CLASS} font-medium break-all`}>
        <a href={follower.actorUrl} rel="noopener noreferrer" target="_blank" className="hover:underline">
          {follower.handle}
          <span className="sr-only"> (profile, opens in a new tab)</span>
        </a>
      </td>
      <td className={`${CELL_CLASS} break-all`}>{follower.server}</td>
      <td className={`${CELL_CLASS} whitespace-nowrap`}>
        <time dateTime={follower.createdAt}>{formatDate(follower.createdAt)}</time>
      </td>
    </>
  );
}

/**
 * A page of followers, newest first, each with Remove. Removing the last row of a page
 * lands on the page before, which still exists.
 */
export function FollowerTable({
  followers,
  page,
  busy,
}: {
  followers: readonly ListedFollower[];
  page: number;
  busy: boolean;
}) {
  const { search } = useLocation();
  const here = fediversePageHref(search, "page", page);
  const back = followers.length === 1 && page > 1 ? fediversePageHref(search, "page", page - 1) : here;
  return (
    <AdminTable columns={["Follower", "Server", "Since", "Actions"]} cellClass={CELL_CLASS} className="mt-4">
      {followers.map((follower) => (
        <tr key={follower.id} className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
          <FollowerCells follower={follower} />
          <td className={`${CELL_CLASS} whitespace-nowrap`}>
            <FollowerButton follower={follower} intent="remove" label="Remove" back={back} busy={busy} tone="danger" />
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/** Follow requests waiting for the owner, each with Approve and Reject. */
export function PendingTable({ requests, busy }: { requests: readonly ListedFollower[]; busy: boolean }) {
  const { search } = useLocation();
  const back = `${SCREEN}${search}`;
  return (
    <AdminTable columns={["Account", "Server", "Asked", "Actions"]} cellClass={CELL_CLASS} className="mt-4">
      {requests.map((request) => (
        <tr key={request.id} className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
          <FollowerCells follower={request} />
          <td className={`${CELL_CLASS} whitespace-nowrap`}>
            <div className="flex gap-1">
              <FollowerButton
                follower={request}
                intent="approve"
                label="Approve"
                back={back}
                busy={busy}
                tone="primary"
              />
              <FollowerButton follower={request} intent="reject" label="Reject" back={back} busy={busy} tone="danger" />
            </div>
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/** Newer and older pages of one of the screen's lists; plain links, so they work without JavaScript. */
export function FediversePager({
  name,
  page,
  pageCount,
  label,
}: {
  name: "page" | "posts";
  page: number;
  pageCount: number;
  label: string;
}) {
  const { search } = useLocation();
  if (pageCount <= 1) return null;
  const linkClass = "font-medium text-indigo-700 underline dark:text-indigo-300";
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex items-center justify-between text-sm">
      {page > 1 ? (
        <Link to={fediversePageHref(search, name, page - 1)} preventScrollReset className={linkClass}>
          Newer
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-700 dark:text-slate-300">{`Page ${page} of ${pageCount}`}</span>
      {page < pageCount ? (
        <Link to={fediversePageHref(search, name, page + 1)} preventScrollReset className={linkClass}>
          Older
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
