import { Link } from "react-router";
import { formatDate, formatDateTime, truncate } from "~/lib/format";
import { postPath } from "~/lib/post-card-data";
import type { PostStatus, PostSummary } from "#domain/post.ts";
import { ConfirmDelete, type DeleteQuestion, TITLE_MAX } from "./admin-list";
import { BULK_FORM_ID } from "./post-bulk";

/** A post as the admin list shows it. */
export type ListedPost = Pick<
  PostSummary,
  "id" | "slug" | "title" | "author" | "category" | "updatedAt" | "publishAt"
> & {
  status: PostStatus;
  /** The post's email in a few words (emailSummary), if it has one. */
  email?: string;
};

interface PostRowProps {
  post: ListedPost;
  /** The list's search and filter, kept by its Delete. */
  keep: Record<string, string>;
  question: DeleteQuestion;
  /** Ticked for the bulk form (while its question about this post is open). */
  ticked: boolean;
}

const actionLinkClass =
  "rounded px-2 py-1 font-medium text-indigo-700 hover:bg-indigo-50 hover:underline dark:text-indigo-300 dark:hover:bg-indigo-950";

/** One post of the admin list, with Edit, View and Delete (confirmed in place, or through ?confirm= without JavaScript). */
export function PostRow({ post, keep, question, ticked }: PostRowProps) {
  return (
    <tr className="align-top hover:bg-slate-50 dark:hover:bg-slate-800/40">
      <td className="min-w-48 px-4 py-3 font-medium" title={post.title}>
        {truncate(post.title, TITLE_MAX)}
      </td>
      {/* A pen name or a category may be as long as its field takes: it wraps, so the table keeps to the window. */}
      <td className="min-w-28 px-4 py-3 [overflow-wrap:anywhere]">{post.author}</td>
      <td className="min-w-28 px-4 py-3 [overflow-wrap:anywhere]">{post.category}</td>
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
          <span className="mt-1 block text-xs text-slate-600 dark:text-slate-400">
            for <time dateTime={post.publishAt}>{formatDateTime(post.publishAt)}</time>
          </span>
        ) : null}
        {post.email ? (
          <span className="mt-1 block text-xs whitespace-nowrap text-slate-600 dark:text-slate-400">{post.email}</span>
        ) : null}
      </td>
      <td className="px-4 py-3">
        {/* Wraps rather than overflows: Delete's question is wider than Delete. */}
        <div className="flex flex-wrap items-center gap-1">
          {/* In this cell, not a column of its own: the list's columns are the spec's (docs/spec.md §2). */}
          <input
            // A new box when the question opens or closes, so Cancel and a done change leave none ticked.
            key={String(ticked)}
            type="checkbox"
            name="id"
            value={post.id}
            form={BULK_FORM_ID}
            defaultChecked={ticked}
            aria-label={`Select ${post.title}`}
            className="mr-1 h-4 w-4 accent-indigo-600"
          />
          <Link to={`/admin/posts/edit/${post.id}`} className={actionLinkClass}>
            Edit<span className="sr-only"> {post.title}</span>
          </Link>
          <a href={postPath(post.slug)} target="_blank" rel="noopener noreferrer" className={actionLinkClass}>
            View<span className="sr-only"> {post.title} (opens in a new tab)</span>
          </a>
          <ConfirmDelete id={post.id} label={post.title} keep={keep} question={question} />
        </div>
      </td>
    </tr>
  );
}
