/**
 * Search rows are keyed in list order (migration 0011): a post's key is its creation time in
 * milliseconds times this, plus how many posts of that same millisecond came before it.
 */
export const SEARCH_KEYS_PER_MILLISECOND = 1024;

/** The first key a post created at `createdAt` may take; safe integers up to the year 2255. */
export function firstSearchKey(createdAt: Date | string): number {
  return new Date(createdAt).getTime() * SEARCH_KEYS_PER_MILLISECOND;
}
