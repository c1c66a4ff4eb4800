import { Link } from "react-router";
import { useSite } from "~/lib/use-site";
import { useAuthorPath } from "~/lib/use-author-links";
import { formatDate } from "~/lib/format";

interface PostBylineProps {
  author: string;
  createdAt: string;
  /** Worked out when the post was saved. */
  readingMinutes: number;
  className?: string;
}

export function PostByline({ author, createdAt, readingMinutes, className = "" }: PostBylineProps) {
  const { timeZone } = useSite();
  const authorPath = useAuthorPath(author);
  return (
    <p className={`text-sm text-slate-600 dark:text-slate-400 ${className}`}>
      {/* The author as an h-card (microformats2) of the h-entry around it: a post's page or card. */}
      <span className="p-author h-card">
        By{" "}
        {authorPath ? (
          <Link
            to={authorPath}
            rel="author"
            className="p-name u-url font-medium text-slate-800 underline-offset-4 hover:underline dark:text-slate-200"
          >
            {author}
          </Link>
        ) : (
          <span className="p-name">{author}</span>
        )}
      </span>
      <span aria-hidden="true"> · </span>
      {/* The date and the reading time wrap together, so "N min read" never ends up on a line of its own. */}
      <span className="whitespace-nowrap">
        <time className="dt-published" dateTime={createdAt}>
          {formatDate(createdAt, timeZone)}
        </time>
        <span aria-hidden="true"> · </span>
        <span>{readingMinutes} min read</span>
      </span>
    </p>
  );
}
