import { pagePath, postPath } from "#domain/site-urls.ts";
import { type EditedItem, editorPaths } from "./edited-item";

const LINK_STYLES = "text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300";

interface ViewItemLinkProps {
  item: EditedItem;
  slug: string;
  /** Whether readers see it now; otherwise its address answers "not available", and its preview is shown instead. */
  isPublic: boolean;
}

/**
 * "View post" / "View page" in a new tab: the public address once readers see it; before that
 * the draft's preview, through a preview link made for the occasion (a plain form, so it works
 * without JavaScript; "Revoke preview links" ends it like any other).
 */
export function ViewItemLink({ item, slug, isPublic }: ViewItemLinkProps) {
  const text = item.kind === "post" ? "View post" : "View page";
  if (isPublic) {
    return (
      <a
        href={item.kind === "post" ? postPath(slug) : pagePath(slug)}
        target="_blank"
        rel="noopener noreferrer"
        className={LINK_STYLES}
      >
        {text}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <form method="post" action={editorPaths(item).previewLink} target="_blank" className="inline">
      <button type="submit" name="intent" value="view" className={LINK_STYLES}>
        {text}
        <span className="sr-only"> (its preview, in a new tab)</span>
      </button>
    </form>
  );
}
