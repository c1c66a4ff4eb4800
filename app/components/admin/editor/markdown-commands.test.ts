import { describe, expect, it } from "vitest";
import {
  continueList,
  countWords,
  insertLink,
  prefixLines,
  type TextEdit,
  type TextState,
  wrapSelection,
} from "./markdown-commands";

function apply(state: TextState, edit: TextEdit | undefined): string {
  if (!edit) return state.value;
  const value = state.value.slice(0, edit.from) + edit.insert + state.value.slice(edit.to);
  return `${value.slice(0, edit.selectStart)}|${value.slice(edit.selectEnd)}`;
}

const at = (value: string): TextState => ({
  value: value.replace("|", ""),
  start: value.indexOf("|"),
  end: value.indexOf("|"),
});

describe("markdown commands", () => {
  it("wraps the selection, or a placeholder, in a marker", () => {
    expect(
      apply(
        { value: "make me bold", start: 8, end: 12 },
        wrapSelection({ value: "make me bold", start: 8, end: 12 }, "**", "bold text"),
      ),
    ).toBe("make me **|**");
    const empty = at("a |");
    expect(wrapSelection(empty, "_", "italic text").insert).toBe("_italic text_");
  });

  it("prefixes every selected line", () => {
    const state = { value: "one\ntwo\nthree", start: 1, end: 6 };
    expect(prefixLines(state, "> ").insert).toBe("> one\n> two");
  });

  it("selects the address of a new link", () => {
    const state = { value: "see docs", start: 4, end: 8 };
    const edit = insertLink(state);
    expect(edit.insert).toBe("[docs](https://)");
    expect(edit.insert.slice(edit.selectStart - 4, edit.selectEnd - 4)).toBe("https://");
  });

  it("continues bullet, numbered and task lists, and ends a list on an empty item", () => {
    expect(apply(at("- one|"), continueList(at("- one|")))).toBe("- one\n- |");
    expect(apply(at("  9. nine|"), continueList(at("  9. nine|")))).toBe("  9. nine\n  10. |");
    expect(apply(at("- [x] done|"), continueList(at("- [x] done|")))).toBe("- [x] done\n- [ ] |");
    expect(apply(at("- one\n- |"), continueList(at("- one\n- |")))).toBe("- one\n|");
    expect(continueList(at("plain text|"))).toBeUndefined();
  });

  it("counts words, not Markdown punctuation", () => {
    expect(countWords("# A *title*\n\n- one, two — three's")).toBe(5);
    expect(countWords("")).toBe(0);
  });
});
