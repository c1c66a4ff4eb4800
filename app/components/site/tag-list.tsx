import { Link } from "react-router";
import { tagPath } from "#domain/site-urls.ts";

interface TagListProps {
  tags: readonly string[];
  className?: string;
}

/** A post's tags, each a link to the tag's page. */
export function TagList({ tags, className = "" }: TagListProps) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className={`flex flex-wrap gap-2 ${className}`}>
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={tagPath(tag)}
            rel="tag"
            className="inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-900 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700 dark:hover:text-white"
          >
            #<span className="p-category">{tag}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
