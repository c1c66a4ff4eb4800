/**
 * What a write changed, named the way cached pages are tagged (server/page-cache.ts):
 * "lists" for every page that lists posts (home, blog, search, categories),
 * "post:<id>" for a post's page and every page showing it as a related post,
 * "page:<id>" for a page's own address, and "navigation" for every page whose header or
 * footer links to a page (a page's slug, title or publishing changed).
 */
export type ContentTag = "lists" | "navigation" | `post:${string}` | `page:${string}`;

export type ContentChangeListener = (tags: ContentTag[]) => void;

/** Services announce writes here; the page cache (and, across servers, PostgreSQL) listens. */
export function createContentChanges() {
  const listeners = new Set<ContentChangeListener>();
  return {
    publish(tags: ContentTag[]): void {
      for (const listener of listeners) listener(tags);
    },
    subscribe(listener: ContentChangeListener): () => void {
      listeners.add(listener);
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
