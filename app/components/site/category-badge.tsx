import { Link } from "react-router";
import { categoryPath } from "#domain/categories.ts";

export function CategoryBadge({ category }: { category: string }) {
  return (
    <Link
      to={categoryPath(category)}
      className="p-category inline-block rounded-full bg-indigo-50 px-3 py-1 text-xs font-semibold tracking-wide text-indigo-800 uppercase hover:bg-indigo-100 dark:bg-indigo-950 dark:text-indigo-200 dark:hover:bg-indigo-900"
    >
      {category}
    </Link>
  );
}
