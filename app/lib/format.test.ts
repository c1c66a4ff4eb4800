import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, pluralise, truncate } from "./format";

describe("formatting", () => {
  it("formats dates en-US long in UTC", () => {
    expect(formatDate("2026-03-05T23:30:00.000Z")).toBe("March 5, 2026");
  });

  it("cuts text at the limit only when it is longer", () => {
    expect(truncate("abcdef", 6)).toBe("abcdef");
    expect(truncate("abcdefg", 6)).toBe("abcdef…");
    expect(truncate("abc def", 4)).toBe("abc…");
  });

  it("uses singular and plural forms", () => {
    expect(pluralise(0, "comment")).toBe("0 comments");
    expect(pluralise(1, "comment")).toBe("1 comment");
    expect(pluralise(2, "post")).toBe("2 posts");
  });
});

describe("formatDateTime", () => {
  it("names the moment in UTC", () => {
    expect(formatDateTime("2026-03-05T14:07:00.000Z")).toBe("Mar 5, 2026, 2:07 PM UTC");
  });
});
