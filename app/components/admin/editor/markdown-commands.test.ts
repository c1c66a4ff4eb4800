import { describe, expect, it } from "vitest";
import {
  continueList,
  countWords,
  imageBlock,
  insertCodeBlock,
  insertLink,
  insertTable,
  numberLines,
  setHeading,
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
    expect(apply(at("- one\n- |"), continueList(at("- one\n- |")))).toBe("- one\n\n|");
    expect(continueList(at("plain text|"))).toBeUndefined();
  });

  it("ends a list on an empty item with a blank line, so the next paragraph follows the list", () => {
    expect(apply(at("- one\n- two\n- |"), continueList(at("- one\n- two\n- |")))).toBe("- one\n- two\n\n|");
    expect(apply(at("1. one\n2. |"), continueList(at("1. one\n2. |")))).toBe("1. one\n\n|");
  });

  it("makes headings of a level, numbered lists, code blocks and tables", () => {
    expect(setHeading({ value: "## Old", start: 3, end: 3 }, 3).insert).toBe("### Old");
    expect(numberLines({ value: "a\nb", start: 0, end: 3 }).insert).toBe("1. a\n2. b");
    expect(apply(at("text|"), insertCodeBlock(at("text|")))).toBe("text\n\n```\n|\n```");
    expect(insertCodeBlock({ value: "x = 1", start: 0, end: 5 }).insert).toBe("```\nx = 1\n```");
    expect(insertTable(at("|")).insert).toBe("| Heading | Heading |\n| --- | --- |\n| Cell | Cell |");
  });

  it("writes an image as Markdown, and a captioned one as a figure with its text escaped", () => {
    expect(imageBlock({ url: "https://img.example/a b.png", alt: "A [boat]", caption: "" })).toBe(
      "![A boat](https://img.example/a%20b.png)",
    );
    expect(imageBlock({ url: "/media/abc/800.png", alt: 'Say "hi"', caption: "Fish & <chips>" })).toBe(
      '<figure>\n<img src="/media/abc/800.png" alt="Say &#34;hi&#34;">\n<figcaption>Fish &#38; &#60;chips&#62;</figcaption>\n</figure>',
    );
  });

  it("counts words, not Markdown punctuation", () => {
    expect(countWords("# A *title*\n\n- one, two — three's")).toBe(5);
    expect(countWords("")).toBe(0);
  });
});
