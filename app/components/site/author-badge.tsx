/** Marks a comment written by a signed-in writer of the blog. */
export function AuthorBadge() {
  return (
    <span className="ml-1 inline-block rounded-full bg-indigo-50 px-2 py-0.5 align-middle text-xs font-semibold tracking-wide text-indigo-800 uppercase dark:bg-indigo-950 dark:text-indigo-200">
      Author
    </span>
  );
}
