interface TagListProps {
  tags: readonly string[];
  className?: string;
}

export function TagList({ tags, className = "" }: TagListProps) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className={`flex flex-wrap gap-2 ${className}`}>
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        >
          #{tag}
        </li>
      ))}
    </ul>
  );
}
