/**
 * Search rows are keyed in list order (migration 0011): a post's key is its creation time in
 * milliseconds times this, plus how many posts of that same millisecond came before it.
 */
export const SEARCH_KEYS_PER_MILLISECOND = 1024;

/** The first key a post created at `createdAt` may take; safe integers up to the year 2255. */
export function firstSearchKey(createdAt: Date | string): number {
  const milliseconds = new Date(createdAt).getTime();
  if (!Number.isFinite(milliseconds)) throw new RangeError(`Not a creation time: ${String(createdAt)}`);
  return milliseconds * SEARCH_KEYS_PER_MILLISECOND;
}
