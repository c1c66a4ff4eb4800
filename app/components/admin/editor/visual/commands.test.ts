import { EditorState, TextSelection } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { BLOCK_ACTIONS } from "./commands";
import { parseMarkdown, serializeMarkdown } from "./markdown";

/** The Markdown after the Footnote action, with the caret at `caretAfter`'s end in the text. */
function withFootnote(markdown: string, caretAfter: string) {
  const read = parseMarkdown(markdown);
  let state = EditorState.create({ doc: read.doc });
  let at = -1;
  state.doc.descendants((node, position) => {
    if (at < 0 && node.isText && node.text!.includes(caretAfter))
      at = position + node.text!.indexOf(caretAfter) + caretAfter.length;
  });
  state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
  const footnote = BLOCK_ACTIONS.find((action) => action.label === "Footnote")!.run;
  if (typeof footnote === "string") throw new Error("the Footnote action runs without a dialog");
  let ran = false;
  footnote(state, (tr) => {
    state = state.apply(tr.insertText("The source."));
    ran = true;
  });
  return { ran, markdown: serializeMarkdown(state.doc, read) };
}

describe("the Footnote action", () => {
  it("puts the number at the caret and the note, being written, at the end", () => {
    expect(withFootnote("A claim.\n\nMore text.", "A claim").markdown).toBe(
      "A claim[^1].\n\nMore text.\n\n[^1]: The source.",
    );
  });

  it("takes the first number the post does not use yet", () => {
    expect(withFootnote("One[^1] and two.\n\n[^1]: First.", "two").markdown).toBe(
      "One[^1] and two[^2].\n\n[^1]: First.\n\n[^2]: The source.",
    );
  });

  it("is not offered inside code", () => {
    expect(withFootnote("```\ncode here\n```", "code").ran).toBe(false);
  });
});
