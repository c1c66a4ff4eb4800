import { Form, Link } from "react-router";
import { formatDate } from "~/lib/format";
import { ListTabs } from "./admin-list";
import { SUBSCRIBER_STATES, type Subscriber, type SubscriberState } from "#domain/newsletter.ts";

export const SUBSCRIBER_COLUMNS = ["Email", "Since", "Source", "Actions"] as const;
export const SUBSCRIBER_CELL_CLASS = "px-4 py-3";

const STATE_LABELS: Record<SubscriberState, string> = {
  pending: "Pending",
  active: "Active",
  unsubscribed: "Unsubscribed",
  bounced: "Bounced",
};
const SOURCE_LABELS: Record<Subscriber["source"], string> = {
  form: "Subscribe form",
  admin: "Added here",
  import: "Imported",
};

/** Where the list is: a state's tab, a search, and the page after a cursor (`<created at>,<id>`). */
export interface SubscriberListParams {
  state: SubscriberState;
  q?: string;
  after?: string;
  confirm?: string;
}

export function subscriberListHref({ state, q, after, confirm }: SubscriberListParams): string {
  const params = new URLSearchParams();
  if (state !== "active") params.set("state", state);
  if (q) params.set("q", q);
  if (after) params.set("after", after);
  if (confirm) params.set("confirm", confirm);
  const search = params.toString();
  return search ? `/admin/subscribers?${search}` : "/admin/subscribers";
}

/** One tab per state, with its count; the counts are of the whole list, whatever the search. */
export function SubscriberTabs({
  state,
  counts,
  q,
}: {
  state: SubscriberState;
  counts: Record<SubscriberState, number>;
  q: string;
}) {
  return (
    <ListTabs
      label="Subscriber state"
      tabs={SUBSCRIBER_STATES.map((tab) => ({
        key: tab,
        label: STATE_LABELS[tab],
        count: counts[tab],
        href: subscriberListHref({ state: tab, q }),
        current: tab === state,
      }))}
    />
  );
}

export function subscriberStateLabel(state: SubscriberState): string {
  return STATE_LABELS[state];
}

/**
 * One subscriber, with Remove. Removing deletes for good (a data-protection request), so it
 * asks first: the link opens the question at `?confirm=`, which works without JavaScript.
 */
export function SubscriberRow({
  subscriber,
  list,
  confirming,
  busy,
}: {
  subscriber: Pick<Subscriber, "id" | "email" | "source" | "createdAt">;
  /** The list as it is, where the answer lands and "No" leads. */
  list: SubscriberListParams;
  confirming: boolean;
  busy: boolean;
}) {
  const back = subscriberListHref(list);
  return (
    <tr className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className={`${SUBSCRIBER_CELL_CLASS} font-medium break-all`}>{subscriber.email}</td>
      <td className={`${SUBSCRIBER_CELL_CLASS} whitespace-nowrap`}>
        <time dateTime={subscriber.createdAt}>{formatDate(subscriber.createdAt)}</time>
      </td>
      <td className={`${SUBSCRIBER_CELL_CLASS} whitespace-nowrap`}>{SOURCE_LABELS[subscriber.source]}</td>
      <td className={`${SUBSCRIBER_CELL_CLASS} whitespace-nowrap`}>
        {confirming ? (
          <span className="flex items-center gap-1 rounded bg-red-50 px-2 py-0.5 dark:bg-red-950">
            <span className="font-medium text-red-800 dark:text-red-200">Remove for good?</span>
            <Form method="post" action="/admin/subscribers/remove" preventScrollReset>
              <input type="hidden" name="id" value={subscriber.id} />
              <input type="hidden" name="back" value={back} />
              <button
                type="submit"
                disabled={busy}
                aria-label={`Yes, remove ${subscriber.email}`}
                className="rounded bg-red-600 px-2 py-0.5 font-semibold text-white hover:bg-red-700 disabled:opacity-70"
              >
                Yes
              </button>
            </Form>
            <Link
              to={back}
              preventScrollReset
              className="rounded px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              No
            </Link>
          </span>
        ) : (
          <Link
            to={subscriberListHref({ ...list, confirm: subscriber.id })}
            preventScrollReset
            className="rounded px-2 py-1 font-medium text-red-700 hover:bg-red-50 hover:underline dark:text-red-300 dark:hover:bg-red-950"
          >
            Remove<span className="sr-only"> {subscriber.email}</span>
          </Link>
        )}
      </td>
    </tr>
  );
}

/** The first page and the next one: the list is walked by cursor, newest first. */
export function SubscriberPager({ list, next }: { list: SubscriberListParams; next: string | undefined }) {
  if (!list.after && !next) return null;
  return (
    <nav aria-label="Subscriber pages" className="mt-6 flex items-center justify-between text-sm">
      {list.after ? (
        <Link
          to={subscriberListHref({ state: list.state, q: list.q })}
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          Newest subscribers
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link
          to={subscriberListHref({ state: list.state, q: list.q, after: next })}
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          Older subscribers
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
