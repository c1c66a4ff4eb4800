import { describe, expect, it } from "vitest";
import { addressMarks } from "./address-mark.ts";

describe("commenters' address marks", () => {
  const comments = [
    { id: "1", author: "Ann", ipHash: "8e98c0d985aa" },
    { id: "2", author: "Annie", ipHash: "8e98c0d985aa" },
    { id: "3", author: "Bob", ipHash: "01ff00aa0000" },
    { id: "4", author: "Remote", ipHash: null },
  ];

  it("gives one address one colour and code, and names the other comments from it", () => {
    const marks = addressMarks(comments);
    expect(marks.get("1")).toEqual({
      hue: 0x8e98c0 % 360,
      code: "8e98c0d985",
      description: "Same person as Annie: another comment on this page came from this address",
    });
    expect(marks.get("2")?.hue).toBe(marks.get("1")?.hue);
    expect(marks.get("2")?.description).toMatch(/^Same person as Ann:/);
    expect(marks.get("3")?.description).toBe("No other comment on this page came from this address");
    expect(marks.has("4")).toBe(false);
  });
});
