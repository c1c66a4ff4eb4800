import { describe, expect, it } from "vitest";
import { normaliseSearchQuery, SEARCH_QUERY_MAX_LENGTH, searchResultsLabel } from "./search";

describe("search query", () => {
  it("trims and treats a missing query as empty", () => {
    expect(normaliseSearchQuery("  sqlite  ")).toBe("sqlite");
    expect(normaliseSearchQuery(null)).toBe("");
    expect(normaliseSearchQuery(undefined)).toBe("");
    expect(normaliseSearchQuery("   ")).toBe("");
  });

  it("cuts long queries to the limit", () => {
    expect(normaliseSearchQuery("a".repeat(10_000))).toBe("a".repeat(SEARCH_QUERY_MAX_LENGTH));
    expect(normaliseSearchQuery("b".repeat(SEARCH_QUERY_MAX_LENGTH))).toHaveLength(SEARCH_QUERY_MAX_LENGTH);
  });

  it("never cuts a character in half", () => {
    const cut = normaliseSearchQuery("🙂".repeat(SEARCH_QUERY_MAX_LENGTH + 5));
    expect(Array.from(cut)).toHaveLength(SEARCH_QUERY_MAX_LENGTH);
    expect(cut).toBe("🙂".repeat(SEARCH_QUERY_MAX_LENGTH));
  });
});

describe("search results label", () => {
  it("uses the spec's singular and plural wording", () => {
    expect(searchResultsLabel(1, "css")).toBe("1 result");
    expect(searchResultsLabel(0, "css")).toBe('0 results found for "css"');
    expect(searchResultsLabel(4, "sql")).toBe('4 results found for "sql"');
  });
});
