/**
 * What a write changed, named the way cached pages are tagged (server/page-cache.ts):
 * "lists" for every page that lists posts (home, blog, search, categories), and
 * "post:<id>" for a post's page and every page showing it as a related post.
 */
export type ContentTag = "lists" | `post:${string}`;

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
