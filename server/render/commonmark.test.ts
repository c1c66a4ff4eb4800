import { tests as specExamples, type SpecExample } from "commonmark-spec";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { renderPostBody } from "./post-body.ts";

/**
 * Raw HTML is the sanitiser's to decide, not the parser's: those sections measure the allow-list,
 * which post-body.test.ts and the sanitiser's own tests cover.
 */
const RAW_HTML_SECTIONS = new Set(["HTML blocks", "Raw HTML"]);

const UNKNOWN_ELEMENT = "the sanitiser drops an element it does not know, keeping its text";
const EMPTY_LINK = "a link to nowhere is unwrapped to its text";
const OTHER_SCHEME = "only http, https and mailto links are kept; others are unwrapped to their text";
const GFM_AUTOLINK = "GFM links bare addresses (linkify), which CommonMark leaves as text";

/**
 * Every example of CommonMark 0.31.2 (outside raw HTML) that renders differently here, and why.
 * The test fails when one of these starts to pass or another starts to fail, so the list stays true.
 */
const KNOWN_DIFFERENCES = new Map<number, string>([
  [200, EMPTY_LINK],
  [201, UNKNOWN_ELEMENT],
  [485, EMPTY_LINK],
  [486, EMPTY_LINK],
  [487, EMPTY_LINK],
  [491, UNKNOWN_ELEMENT],
  [524, UNKNOWN_ELEMENT],
  [536, UNKNOWN_ELEMENT],
  [567, EMPTY_LINK],
  [596, OTHER_SCHEME],
  [598, OTHER_SCHEME],
  [599, OTHER_SCHEME],
  [601, OTHER_SCHEME],
  [602, GFM_AUTOLINK],
  [608, GFM_AUTOLINK],
  [611, GFM_AUTOLINK],
  [612, GFM_AUTOLINK],
]);

const VOID_ELEMENTS = new Set(["br", "hr", "img", "input", "source"]);
const BLOCK_TAG =
  /\s*(<\/?(?:blockquote|dd|div|dl|dt|h[1-6]|hr|li|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>)\s*/g;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** What the renderer adds to every page, not a difference in the Markdown: heading ids and lazy images. */
function isOwnAddition(element: string, attribute: string, value: string): boolean {
  return (
    (/^h[1-6]$/.test(element) && attribute === "id" && value.startsWith("h-")) ||
    (element === "img" && attribute === "loading" && value === "lazy")
  );
}

/**
 * HTML as a browser reads it, written one way, after the spec's own normaliser: entities decoded,
 * attributes sorted, runs of white space one space outside `<pre>`, none around block tags.
 */
function normalizeHtml(html: string): string {
  const out: string[] = [];
  let preDepth = 0;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === "pre") preDepth += 1;
      const kept = Object.entries(attributes)
        .filter(([attribute, value]) => !isOwnAddition(name, attribute, value))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([attribute, value]) => ` ${attribute}="${escapeHtml(value)}"`);
      out.push(`<${name}${kept.join("")}>`);
    },
    onclosetag(name) {
      if (name === "pre") preDepth -= 1;
      if (!VOID_ELEMENTS.has(name)) out.push(`</${name}>`);
    },
    ontext(text) {
      out.push(escapeHtml(preDepth > 0 ? text : text.replace(/\s+/g, " ")));
    },
  });
  parser.write(html);
  parser.end();
  return out.join("").replace(BLOCK_TAG, "$1").trim();
}

/** The spec writes tabs as arrows, to be seen. */
const withTabs = (text: string) => text.replaceAll("→", "\t");

/** How an example renders here, when that is not what the spec says. */
function difference(example: SpecExample): string | undefined {
  const rendered = normalizeHtml(renderPostBody("markdown", withTabs(example.markdown)).html);
  return rendered === normalizeHtml(withTabs(example.html)) ? undefined : rendered;
}

const examples = specExamples.filter((example) => !RAW_HTML_SECTIONS.has(example.section));
const sections = [...new Set(examples.map((example) => example.section))];

describe(`CommonMark 0.31.2: ${examples.length - KNOWN_DIFFERENCES.size} of ${examples.length} examples outside raw HTML render as the spec says`, () => {
  it.each(sections)("%s", (section) => {
    const inSection = examples.filter((example) => example.section === section);
    const differing = inSection.flatMap((example) => {
      const rendered = difference(example);
      return rendered === undefined ? [] : [{ number: example.number, markdown: example.markdown, rendered }];
    });
    const known = inSection.filter((example) => KNOWN_DIFFERENCES.has(example.number)).map((example) => example.number);
    const unknown = differing.filter((example) => !KNOWN_DIFFERENCES.has(example.number));
    expect(
      differing.map((example) => example.number),
      `examples that differ from the spec must be known, and known ones must still differ; new: ${JSON.stringify(unknown)}`,
    ).toEqual(known);
  });

  it("knows only examples that exist outside raw HTML", () => {
    const numbers = new Set(examples.map((example) => example.number));
    expect([...KNOWN_DIFFERENCES.keys()].filter((number) => !numbers.has(number))).toEqual([]);
  });
});
