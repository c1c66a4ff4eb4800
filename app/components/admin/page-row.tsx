import { Link } from "react-router";
import { formatDate, truncate } from "~/lib/format";
import { pagePath } from "#domain/site-urls.ts";
import type { PageSummary } from "#domain/page.ts";
import { editorPaths } from "./editor/edited-item";
import { ConfirmDelete, type DeleteQuestion, TITLE_MAX } from "./admin-list";

/** A page as the admin list shows it. */
export type ListedPage = Pick<PageSummary, "id" | "slug" | "title" | "published" | "editedAt">;

interface PageRowProps {
  page: ListedPage;
  question: DeleteQuestion;
}

const linkClass = "font-medium text-indigo-700 hover:underline dark:text-indigo-300";

/**
 * One page of the admin list: its title (to the editor), its address (to the page, once
 * public), its status, when it was last saved, and Delete, asked first as in the posts list.
 */
export function PageRow({ page, question }: PageRowProps) {
  const address = pagePath(page.slug);
  return (
    <tr className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className="min-w-48 px-4 py-3" title={page.title}>
        <Link to={editorPaths({ kind: "page", id: page.id }).edit} className={linkClass}>
          {truncate(page.title, TITLE_MAX)}
        </Link>
      </td>
      <td className="min-w-32 px-4 py-3 font-mono text-xs [overflow-wrap:anywhere]">
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
      <td className="px-4 py-3">
        <div className="flex flex-wrap items-center gap-1">
          <ConfirmDelete id={page.id} label={page.title} question={question} />
        </div>
      </td>
    </tr>
  );
}
