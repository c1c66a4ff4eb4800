import { useSite } from "~/lib/use-site";
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
  return (
    <p className={`text-sm text-slate-600 dark:text-slate-400 ${className}`}>
      <span>By {author}</span>
      <span aria-hidden="true"> · </span>
      {/* The date and the reading time wrap together, so "N min read" never ends up on a line of its own. */}
      <span className="whitespace-nowrap">
        <time dateTime={createdAt}>{formatDate(createdAt, timeZone)}</time>
        <span aria-hidden="true"> · </span>
        <span>{readingMinutes} min read</span>
      </span>
    </p>
  );
}
