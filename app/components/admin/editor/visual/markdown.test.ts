import { readFileSync } from "node:fs";
import { tests as specExamples } from "commonmark-spec";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { demoPosts } from "#server/demo/index.ts";
import { parseMarkdown, serializeBlock, serializeMarkdown } from "./markdown";
import { EditorState } from "prosemirror-state";

const roundTrip = (text: string) => {
  const read = parseMarkdown(text);
  return serializeMarkdown(read.doc, read);
};

const wordpressBodies = [
  ...readFileSync(new URL("../../../../../tests/fixtures/wordpress-export.xml", import.meta.url), "utf8").matchAll(
    /<content:encoded><!\[CDATA\[([\s\S]*?)\]\]><\/content:encoded>/g,
  ),
].map((match) => match[1]!);

/** GFM's own extensions, as its spec writes them (tables, task lists, strikethrough, autolinks). */
const GFM_EXAMPLES = [
  "| foo | bar |\n| --- | --- |\n| baz | bim |",
  "| abc | defghi |\n:-: | -----------:\nbar | baz",
  "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |",
  "| abc | def |\n| --- | --- |\n| bar | baz |\n> bar",
  "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |",
  "- [ ] foo\n- [x] bar",
  "- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim",
  "~~Hi~~ Hello, ~there~ world!",
  "This ~~has a\n\nnew paragraph~~.",
  "www.commonmark.org",
  "Visit www.commonmark.org/help for more information.",
  "Here is a footnote reference,[^1] and another.[^longnote]\n\n[^1]: Here is the footnote.\n\n[^longnote]: Here's one with multiple blocks.\n\n    Subsequent paragraphs are indented.",
];

describe("the visual view's Markdown", () => {
  it("gives back every CommonMark 0.31.2 example byte for byte", () => {
    const changed = specExamples.filter((example) => roundTrip(example.markdown) !== example.markdown);
    expect(changed.map((example) => example.number)).toEqual([]);
  });

  it("gives back GFM's examples, every demo post and every WordPress import byte for byte", () => {
    const bodies = [...GFM_EXAMPLES, ...demoPosts.map((post) => post.content), ...wordpressBodies];
    expect(wordpressBodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(roundTrip(body)).toBe(body);
    for (const body of bodies) expect(roundTrip(`${body}\r\n`)).toBe(`${body}\r\n`);
  });

  it("writes anew only the block the writer changed", () => {
    const text = "# Title\n\nFirst  *para*\ngraph.\n\n\n- one\n- two\n\nLast paragraph.\n";
    const read = parseMarkdown(text);
    const state = EditorState.create({ doc: read.doc });
    const edited = state.apply(state.tr.insertText("New ", read.doc.child(0).nodeSize + 1)).doc;
    expect(serializeMarkdown(edited, read)).toBe(
      "# Title\n\nNew First  *para* graph.\n\n\n- one\n- two\n\nLast paragraph.\n",
    );
  });
});

/**
 * The CommonMark examples whose HTML changes when every block is written anew from its node, as
 * if the writer had edited each one: tabs and indentation the view does not keep, entity and
 * backslash spellings, raw HTML blocks beside Markdown, link reference definitions the written
 * link no longer needs. Unedited, each still comes back byte for byte (above).
 */
const REWRITE_CHANGES = [
  9, 14, 21, 25, 28, 31, 37, 39, 40, 46, 49, 70, 76, 81, 82, 87, 88, 93, 95, 104, 105, 106, 113, 126, 130, 138, 144,
  145, 146, 148, 150, 151, 152, 153, 154, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 171, 173, 178,
  181, 185, 186, 187, 188, 189, 190, 191, 213, 216, 217, 220, 222, 223, 224, 228, 229, 230, 232, 233, 237, 238, 243,
  247, 250, 251, 253, 254, 285, 286, 287, 288, 290, 291, 292, 293, 300, 302, 304, 312, 320, 321, 334, 367, 369, 373,
  384, 389, 394, 405, 407, 408, 409, 417, 418, 419, 423, 425, 426, 427, 430, 432, 461, 463, 464, 465, 466, 468, 484,
  487, 490, 494, 505, 520, 543, 552, 556, 573, 574, 575, 576, 577, 585, 587, 589, 621, 648, 649,
];

describe("a block the writer changed", () => {
  const renderer = new MarkdownIt({ html: true, linkify: true });
  it("renders as before for all but the listed CommonMark examples", () => {
    const differ: number[] = [];
    for (const example of specExamples) {
      const read = parseMarkdown(example.markdown);
      const parts: string[] = [];
      read.doc.forEach((node) => parts.push(serializeBlock(node)));
      const rewritten = parts.join("\n\n");
      if (renderer.render(rewritten) !== renderer.render(example.markdown)) differ.push(example.number);
    }
    expect(differ).toEqual(REWRITE_CHANGES);
  });
});
