/**
 * What a write changed, named the way cached pages are tagged (server/page-cache.ts):
 * "lists" for every page that lists posts (home, blog, search, categories),
 * "post:<id>" for a post's page and every page showing it as a related post,
 * "page:<id>" for a page's own address, and "navigation" for every page whose header or
 * footer links to a page (a page's slug, title or publishing changed).
 */
export type ContentTag = "lists" | "navigation" | `post:${string}` | `page:${string}`;

/**
 * What a write was to. Only a post's change can alter what the fediverse is sent (its sweep
 * compares posts alone, server/federation/delivery.ts); a comment or a page changes pages only.
 */
export const CONTENT_CHANGE_KINDS = ["post", "comment", "page"] as const;
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
