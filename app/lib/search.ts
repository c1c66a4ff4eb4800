/** Longer queries are cut before searching: nobody types more, and it bounds the work one request can ask for. */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** The query as searched: trimmed and cut to the limit without splitting a character. */
export function normaliseSearchQuery(raw: string | null | undefined): string {
  const trimmed = (raw ?? "").trim();
  if (trimmed.length <= SEARCH_QUERY_MAX_LENGTH) return trimmed;
  return Array.from(trimmed).slice(0, SEARCH_QUERY_MAX_LENGTH).join("").trim();
}

/** docs/spec.md §2 words the count this way: '1 result', or 'N results found for "q"'. */
export function searchResultsLabel(count: number, query: string): string {
  return count === 1 ? "1 result" : `${count} results found for "${query}"`;
}
