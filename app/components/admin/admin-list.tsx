import { type ReactNode, useState } from "react";
import { Form, Link, useNavigation } from "react-router";

/** docs/spec.md §9: admin titles are cut at 40 characters. */
export const TITLE_MAX = 40;

/** A column heading; a `hidden` one is read by screen readers only (a checkbox column's). */
export type AdminTableColumn = string | { label: string; hidden: true };

interface AdminTableProps {
  columns: readonly AdminTableColumn[];
  /** The headings' padding, the same as the rows' cells. */
  cellClass: string;
  /** The space above the table. */
  className: string;
  /** The rows. */
  children: ReactNode;
}

/** The admin lists' table: a bordered box with a heading row; on a phone each row is a card (app/styles/admin.css). */
export function AdminTable({ columns, cellClass, className, children }: AdminTableProps) {
  return (
    <div
      // Positioned, so the rows' screen-reader-only words are laid out (and clipped) inside it, not beside the page.
      className={`${className} relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900`}
    >
      <table className="admin-stack min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800">
        <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
          <tr>
            {columns.map((column) =>
              typeof column === "string" ? (
                <th key={column} scope="col" className={cellClass}>
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className={cellClass}>
                  <span className="sr-only">{column.label}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** What an admin list says in place of its table when it has no rows. */
export function EmptyList({ className, children }: { className: string; children: ReactNode }) {
  return (
    <p
      className={`${className} rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400`}
    >
      {children}
    </p>
  );
}

/** The submit button of an admin list's search form (the form works without JavaScript). */
export function SearchButton() {
  return (
    <button
      type="submit"
      className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
    >
      Search
    </button>
  );
}

/** An admin list's tabs (a comment's status, a subscriber's state), each a link with its count. */
export function ListTabs({
  label,
  tabs,
}: {
  label: string;
  tabs: readonly { key: string; label: string; count: number; href: string; current: boolean }[];
}) {
  return (
    <nav aria-label={label} className="mt-6 border-b border-slate-200 dark:border-slate-800">
      <ul className="-mb-px flex flex-wrap gap-1">
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link
              to={tab.href}
              aria-current={tab.current ? "page" : undefined}
              className={`inline-block border-b-2 px-4 py-2 text-sm font-medium ${
                tab.current
                  ? "border-indigo-600 text-indigo-800 dark:border-indigo-300 dark:text-indigo-200"
                  : "border-transparent text-slate-700 hover:border-slate-400 dark:text-slate-300"
              }`}
            >
              {tab.label} ({tab.count})
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** An admin list's search: a GET form that keeps the list's other parameters as hidden fields. */
export function ListSearch({
  action,
  id,
  label,
  placeholder,
  query,
  maxLength,
  keep,
}: {
  action: string;
  id: string;
  /** What the field searches, for screen readers. */
  label: string;
  placeholder: string;
  query: string;
  maxLength: number;
  /** The list's other parameters (its tab, its post), kept as the search changes. */
  keep: Record<string, string | undefined>;
}) {
  return (
    <Form method="get" action={action} role="search" className="mt-4 flex gap-2">
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={maxLength}
        placeholder={placeholder}
        className="w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2 text-base sm:text-sm dark:border-slate-500 dark:bg-slate-900"
      />
      <SearchButton />
    </Form>
  );
}

/** A row's delete question: where its links lead without JavaScript, and its state with it. */
export interface DeleteQuestion {
  /** The list as it is, where "No" leads without JavaScript. */
  listHref: string;
  /** The list with this row's question open (?confirm=): where "Delete" leads without JavaScript. */
  confirmHref: string;
  confirming: boolean;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The delete questions of a list's rows: one is open from ?confirm= (the path without
 * JavaScript) and is then toggled in place; a row is deleting while its Yes is being sent.
 */
export function useDeleteQuestions({
  confirmId,
  listHref,
  confirmHref,
}: {
  confirmId: string | null;
  listHref: string;
  confirmHref: (id: string) => string;
}): (id: string) => DeleteQuestion {
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(confirmId);
  const [confirmIdSeen, setConfirmIdSeen] = useState(confirmId);
  if (confirmId !== confirmIdSeen) {
    setConfirmIdSeen(confirmId);
    setConfirming(confirmId);
  }
  const sent = navigation.state === "submitting" ? navigation.formData : undefined;
  const deletingId = sent?.get("intent") === "delete" ? sent.get("id") : undefined;
  return (id) => ({
    listHref,
    confirmHref: confirmHref(id),
    confirming: confirming === id,
    deleting: deletingId === id,
    onConfirm: () => setConfirming(id),
    onCancel: () => setConfirming(null),
  });
}

interface ConfirmDeleteProps {
  /** What is deleted: the form posts `intent=delete` and this `id`. */
  id: string;
  /** Its title, for screen readers ("Delete {label}"). */
  label: string;
  /** The list's other parameters (its search), posted with the delete so it comes back to the same list. */
  keep?: Record<string, string>;
  question: DeleteQuestion;
}

/** A link to the list with the question shown or hidden (the path without JavaScript); with it, toggled in place. */
function ToggleLink({
  to,
  onToggle,
  className,
  children,
}: {
  to: string;
  onToggle: () => void;
  className: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        onToggle();
      }}
      className={className}
    >
      {children}
    </Link>
  );
}

/** An admin list row's Delete, asked first: "Confirm?" with Yes (a form post) and No. */
export function ConfirmDelete({ id, label, keep = {}, question }: ConfirmDeleteProps) {
  const { listHref, confirmHref, confirming, deleting, onConfirm, onCancel } = question;
  if (!confirming) {
    return (
      <ToggleLink
        to={confirmHref}
        onToggle={onConfirm}
        className="rounded px-2 py-1 font-medium text-red-700 hover:bg-red-50 hover:underline dark:text-red-300 dark:hover:bg-red-950"
      >
        Delete<span className="sr-only"> {label}</span>
      </ToggleLink>
    );
  }
  return (
    <span className="flex items-center gap-1 rounded bg-red-50 px-2 py-0.5 dark:bg-red-950">
      <span className="font-medium text-red-800 dark:text-red-200">Confirm?</span>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={id} />
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button
          type="submit"
          disabled={deleting}
          className="rounded bg-red-600 px-2 py-0.5 font-semibold text-white hover:bg-red-700 disabled:opacity-70"
        >
          Yes
        </button>
      </Form>
      <ToggleLink
        to={listHref}
        onToggle={onCancel}
        className="rounded px-2 py-0.5 font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        No
      </ToggleLink>
    </span>
  );
}
