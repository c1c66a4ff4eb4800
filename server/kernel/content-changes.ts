/**
 * What a write changed, named the way cached pages are tagged (server/kernel/page-cache.ts):
 * "lists" for every page that lists posts (home, blog, search, categories),
 * "post:<id>" for a post's page and every page showing it as a related post,
 * "page:<id>" for a page's own address, and "navigation" for every page whose header or
 * footer links to a page (a page's slug, title or publishing changed) or to a category; every
 * cached reader's page carries it, so a category's change ("lists" and "navigation") empties them all.
 */
export type ContentTag = "lists" | "navigation" | `post:${string}` | `page:${string}`;

/**
 * What a write was to, so a listener may hear one kind only. What a post's write means beyond its
 * pages (an email, the fediverse's sweep) is not told here but by its life (server/posts/service.ts, PostLife).
 */
export const CONTENT_CHANGE_KINDS = ["post", "comment", "page", "category", "author"] as const;
export type ContentChangeKind = (typeof CONTENT_CHANGE_KINDS)[number];

export type ContentChangeListener = (tags: ContentTag[], kind: ContentChangeKind) => void;

/** Services announce writes here; the page cache (and, across servers, PostgreSQL) listens. */
export function createContentChanges() {
  const listeners = new Map<ContentChangeListener, readonly ContentChangeKind[]>();
  return {
    publish(tags: ContentTag[], kind: ContentChangeKind): void {
      for (const [listener, kinds] of listeners) if (kinds.includes(kind)) listener(tags, kind);
    },
    /** `listener` hears every change, or only those of `kinds`. */
    subscribe(listener: ContentChangeListener, kinds: readonly ContentChangeKind[] = CONTENT_CHANGE_KINDS): () => void {
      listeners.set(listener, kinds);
      return () => listeners.delete(listener);
    },
  };
}

export type ContentChanges = ReturnType<typeof createContentChanges>;

export function postTag(id: string): ContentTag {
  return `post:${id}`;
}

export function pageTag(id: string): ContentTag {
  return `page:${id}`;
}
