/** Public grids: the default of the "posts per page" setting; 24 cards, so the demo blog fits on one page. */
export const POSTS_PER_PAGE = 24;
/** Comments on a post: the newest 50, then older ones a page at a time. */
export const COMMENTS_PER_PAGE = 50;
/** Admin list rows a page. */
export const ADMIN_POSTS_PER_PAGE = 50;

/** One page of a list, with the size of the whole list ("N posts found" counts everything). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page of a list whose size is not counted (a tag's or an author's posts): one row more
 * than a page is read, which says whether another page follows, so the cost is the page's alone.
 */
export interface OpenPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  hasNext: boolean;
}

export function pageCount(page: Pick<Page<unknown>, "total" | "pageSize">): number {
  return Math.max(1, Math.ceil(page.total / page.pageSize));
}

/** Page 1 always exists (an empty list shows its empty state); any other page must hold items. */
export function pageExists(page: Pick<Page<unknown>, "total" | "pageSize" | "page">): boolean {
  return page.page === 1 || page.page <= pageCount(page);
}

export function pageWindow(page: number, pageSize: number): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** The highest page number a URL may name: beyond any blog's size, small enough to keep offsets exact. */
export const MAX_PAGE = 1_000_000;

/** `?page=` as a page number: absent means 1; anything but a whole number from 1 to MAX_PAGE is undefined. */
export function parsePageParam(raw: string | null): number | undefined {
  if (raw === null) return 1;
  if (!/^[1-9][0-9]{0,6}$/.test(raw)) return undefined;
  const page = Number(raw);
  return page <= MAX_PAGE ? page : undefined;
}
