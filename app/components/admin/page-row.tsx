import { Form, Link } from "react-router";
import { formatDate, truncate } from "~/lib/format";
import { pagePath } from "#domain/site-urls.ts";
import type { PageSummary } from "#domain/page.ts";
import { editorPaths } from "./editor/edited-item";
import { TITLE_MAX } from "./admin-list";

/** A page as the admin list shows it. */
export type ListedPage = Pick<PageSummary, "id" | "slug" | "title" | "published" | "editedAt">;

interface PageRowProps {
  page: ListedPage;
  /** The list as it is (its page number kept), where "No" leads without JavaScript. */
  listHref: string;
  /** The list with this page's delete question open: the way to it without JavaScript. */
  confirmHref: string;
  confirming: boolean;
  deleting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

const linkClass = "font-medium text-indigo-700 hover:underline dark:text-indigo-300";

/**
 * One page of the admin list: its title (to the editor), its address (to the page, once
 * public), its status, when it was last saved, and Delete, asked first as in the posts list.
 */
export function PageRow({ page, listHref, confirmHref, confirming, deleting, onConfirm, onCancel }: PageRowProps) {
  const address = pagePath(page.slug);
  return (
    <tr className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className="min-w-48 px-4 py-3" title={page.title}>
        <Link to={editorPaths({ kind: "page", id: page.id }).edit} className={linkClass}>
          {truncate(page.title, TITLE_MAX)}
        </Link>
      </td>
      <td className="px-4 py-3 font-mono text-xs whitespace-nowrap">
        {page.published ? (
          <a href={address} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {address}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          address
        )}
      </td>
      <td className="px-4 py-3">
        <span
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
            page.published
              ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200"
              : "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200"
          }`}
        >
          {page.published ? "Published" : "Draft"}
        </span>
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        {page.editedAt ? (
          <time dateTime={page.editedAt}>{formatDate(page.editedAt)}</time>
        ) : (
          <span className="text-slate-600 dark:text-slate-400">Original design</span>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        {confirming ? (
          <span className="inline-flex items-center gap-1 rounded bg-red-50 px-2 py-0.5 dark:bg-red-950">
            <span className="font-medium text-red-800 dark:text-red-200">Confirm?</span>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={page.id} />
              <button
                type="submit"
                disabled={deleting}
                className="rounded bg-red-600 px-2 py-0.5 font-semibold text-white hover:bg-red-700 disabled:opacity-70"
              >
                Yes
              </button>
            </Form>
            <Link
              to={listHref}
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
            Delete<span className="sr-only"> {page.title}</span>
          </Link>
        )}
      </td>
    </tr>
  );
}
