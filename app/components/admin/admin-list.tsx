import type { ReactNode } from "react";

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

/** The admin lists' table: a bordered, horizontally scrolling box with a heading row. */
export function AdminTable({ columns, cellClass, className, children }: AdminTableProps) {
  return (
    <div
      className={`${className} overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900`}
    >
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800">
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
