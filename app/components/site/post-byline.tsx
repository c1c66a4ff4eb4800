import { formatDate } from "~/lib/format";

interface PostBylineProps {
  author: string;
  createdAt: string;
  className?: string;
}

export function PostByline({ author, createdAt, className = "" }: PostBylineProps) {
  return (
    <p className={`text-sm text-slate-600 dark:text-slate-400 ${className}`}>
      <span>By {author}</span>
      <span aria-hidden="true"> · </span>
      <time dateTime={createdAt}>{formatDate(createdAt)}</time>
    </p>
  );
}
