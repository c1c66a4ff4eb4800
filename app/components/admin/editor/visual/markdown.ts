import MarkdownIt from "markdown-it";
import footnote from "markdown-it-footnote";
import type { StateCore, Token } from "markdown-it";
import { Fragment, type Node } from "prosemirror-model";
import { MarkdownParser, MarkdownSerializer, defaultMarkdownSerializer } from "prosemirror-markdown";
import { gfmExtensions } from "#domain/gfm.ts";
import { imageBlock } from "../markdown-commands";
import { visualSchema as schema } from "./schema";

/**
 * Markdown in and out of the visual view, without touching what the writer did not edit.
 *
 * The text is split into its top-level blocks, each with its source. A block the writer leaves
 * alone is written back as that very source (found by the node's identity: ProseMirror keeps
 * every untouched node as the same object), and so are the blank lines around it; only a block
 * the writer changed is written anew. Unedited text comes back byte for byte by construction,
 * and an edit changes only its own block's lines (docs/decisions/0032).
 */

/** Where a top-level node came from: its source, and the text up to the next block. */
interface Origin {
  source: string;
  /** The text between this block and the one before it, or after it (blank lines). */
  before: string;
  after: string;
}

export interface VisualDocument {
  doc: Node;
  origins: WeakMap<Node, Origin>;
  /** The text before the first block and after the last one (blank lines, a final newline). */
  prefix: string;
  suffix: string;
  last: Node | undefined;
}

const TASK = /^\[([ xX])\][ \t]/;

/** GFM task items: `- [ ] text` becomes a list item with `checked`, the box taken off its text. */
function taskItems(state: StateCore): void {
  const tokens = state.tokens;
  for (let index = 0; index + 2 < tokens.length; index++) {
    const item = tokens[index]!;
    const inline = tokens[index + 2]!;
    if (item.type !== "list_item_open" || tokens[index + 1]!.type !== "paragraph_open" || inline.type !== "inline") {
      continue;
    }
    const first = inline.children?.[0];
    const match = first?.type === "text" ? TASK.exec(first.content) : null;
    if (!first || !match) continue;
    item.meta = { checked: match[1] !== " " };
    first.content = first.content.slice(match[0].length);
  }
}

// Read as the server's renderer reads (server/render/post-body.ts), so `~x~` is struck through here as on the page.
const tokenizer = new MarkdownIt({ html: true, linkify: true }).use(gfmExtensions).use(footnote);
tokenizer.core.ruler.after("inline", "task_items", taskItems);

const FIGURE = /^<figure>\n<img src="([^"]*)" alt="([^"]*)">\n<figcaption>(.*)<\/figcaption>\n<\/figure>$/;

const unescapeHtml = (text: string) => tokenizer.utils.unescapeAll(text);

const alignOf = (token: Token) =>
  /text-align:\s*(left|center|right)/.exec(String(token.attrGet("style") ?? ""))?.[1] ?? null;

// The parser reads tokens handed to it in the environment: the whole text is tokenised once, so
// references, footnotes and lazy lines mean what they mean in context, then each block's tokens
// are turned into its node.
const blockParser = new MarkdownParser(
  schema,
  { parse: (_text: string, env: { tokens: Token[] }) => env.tokens } as unknown as typeof tokenizer,
  {
    blockquote: { block: "blockquote" },
    paragraph: { block: "paragraph" },
    list_item: {
      block: "list_item",
      getAttrs: (token) => ({ checked: (token.meta as { checked?: boolean } | null)?.checked ?? null }),
    },
    bullet_list: {
      block: "bullet_list",
      getAttrs: (token, tokens, index) => ({ bullet: token.markup || "-", tight: isTight(tokens, index) }),
    },
    ordered_list: {
      block: "ordered_list",
      getAttrs: (token, tokens, index) => ({
        order: Number(token.attrGet("start") ?? 1),
        tight: isTight(tokens, index),
      }),
    },
    heading: { block: "heading", getAttrs: (token) => ({ level: Number(token.tag.slice(1)) }) },
    code_block: { block: "code_block", noCloseToken: true },
    fence: { block: "code_block", getAttrs: (token) => ({ params: token.info }), noCloseToken: true },
    hr: { node: "horizontal_rule", getAttrs: (token) => ({ markup: token.markup }) },
    image: {
      node: "image",
      getAttrs: (token) => ({
        src: token.attrGet("src"),
        title: token.attrGet("title") || null,
        alt: token.children?.[0]?.content ?? "",
      }),
    },
    hardbreak: { node: "hard_break" },
    html_inline: { node: "html", getAttrs: (token) => ({ source: token.content }) },
    footnote_ref: {
      node: "footnote_ref",
      getAttrs: (token) => {
        const label = (token.meta as { label?: string }).label;
        // An inline footnote (^[…]) has no label to write back: its block stays Markdown.
        if (label === undefined) throw new Error("inline footnote");
        return { label };
      },
    },
    table: { block: "table" },
    thead: { ignore: true },
    tbody: { ignore: true },
    tr: { block: "table_row" },
    th: { block: "table_cell", getAttrs: (token) => ({ header: true, align: alignOf(token) }) },
    td: { block: "table_cell", getAttrs: (token) => ({ header: false, align: alignOf(token) }) },
    em: { mark: "em" },
    strong: { mark: "strong" },
    s: { mark: "strike" },
    link: {
      mark: "link",
      getAttrs: (token) => ({ href: token.attrGet("href"), title: token.attrGet("title") || null }),
    },
    code_inline: { mark: "code", noCloseToken: true },
  },
);

function isTight(tokens: Token[], index: number): boolean {
  for (let next = index + 1; next < tokens.length; next++) {
    if (tokens[next]!.type !== "list_item_open") return tokens[next]!.hidden;
  }
  return false;
}

/** One block's node, or a `markdown` block of its source when the view cannot draw it as one node. */
function blockNode(tokens: Token[], source: string): Node {
  const html = tokens.length === 1 && tokens[0]!.type === "html_block" ? FIGURE.exec(source) : null;
  if (html) {
    return schema.nodes.figure!.create({
      src: unescapeHtml(html[1]!),
      alt: unescapeHtml(html[2]!),
      caption: unescapeHtml(html[3]!),
    });
  }
  if (tokens[0]?.type !== "html_block") {
    try {
      const doc = blockParser.parse("", { tokens });
      if (doc.childCount === 1) return doc.firstChild!;
    } catch {
      // A token the schema has no node for: the block is kept as its Markdown below.
    }
  }
  return markdownBlock(source);
}

const markdownBlock = (source: string) => schema.nodes.markdown!.create(null, source ? schema.text(source) : null);

/** Offsets where each line starts, and where its text ends (before its line ending). */
function lineOffsets(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  const breaks = /\r\n|\r|\n/g;
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    ends.push(match.index);
    starts.push(match.index + match[0].length);
  }
  ends.push(text.length);
  return { starts, ends };
}

/** Reads Markdown into the visual view's document, remembering each block's source. */
export function parseMarkdown(text: string): VisualDocument {
  const env: Record<string, unknown> = {};
  const tokens = tokenizer.parse(text, env);
  const { starts, ends } = lineOffsets(text);
  const blocks: { from: number; to: number; tokens: Token[] }[] = [];
  // Top-level blocks with their line ranges; footnote definitions come after every block, without lines.
  for (let index = 0; index < tokens.length;) {
    const first = tokens[index]!;
    let end = index;
    if (first.nesting === 1) {
      let depth = 0;
      do {
        depth += tokens[end]!.nesting;
        end++;
      } while (depth > 0 && end < tokens.length);
    } else {
      end++;
    }
    if (first.map && first.level === 0)
      blocks.push({ from: first.map[0], to: first.map[1], tokens: tokens.slice(index, end) });
    index = end;
  }
  // Lines no block covers but that hold text (link and footnote definitions) are blocks of Markdown.
  const covered: { from: number; to: number; tokens: Token[] }[] = [];
  let line = 0;
  const addUncovered = (until: number) => {
    while (line < until) {
      if (text.slice(starts[line], ends[line]).trim() === "") {
        line++;
        continue;
      }
      const from = line;
      while (line < until && text.slice(starts[line], ends[line]).trim() !== "") line++;
      covered.push({ from, to: line, tokens: [] });
    }
  };
  for (const block of blocks) {
    if (block.from < line) {
      // Overlapping ranges cannot be written back separately: the two become one Markdown block.
      const previous = covered.pop()!;
      covered.push({ from: previous.from, to: Math.max(previous.to, block.to), tokens: [] });
      line = Math.max(line, block.to);
      continue;
    }
    addUncovered(block.from);
    covered.push(block);
    line = block.to;
  }
  addUncovered(starts.length);

  const origins = new WeakMap<Node, Origin>();
  const nodes: Node[] = [];
  covered.forEach((block, index) => {
    const start = starts[block.from]!;
    const end = ends[block.to - 1]!;
    const next = covered[index + 1];
    const source = text.slice(start, end);
    const node = block.tokens.length > 0 ? blockNode(block.tokens, source) : markdownBlock(source);
    const previous = covered[index - 1];
    const before = previous ? text.slice(ends[previous.to - 1], start) : "\n\n";
    origins.set(node, { source, before, after: next ? text.slice(end, starts[next.from]) : "" });
    nodes.push(node);
  });
  if (nodes.length === 0) {
    return {
      doc: schema.node("doc", null, [schema.node("paragraph")]),
      origins,
      prefix: "",
      suffix: text,
      last: undefined,
    };
  }
  const lastEnd = ends[covered[covered.length - 1]!.to - 1]!;
  return {
    doc: schema.node("doc", null, nodes),
    origins,
    prefix: text.slice(0, starts[covered[0]!.from]),
    suffix: text.slice(lastEnd),
    last: nodes[nodes.length - 1],
  };
}

function tableRow(row: Node, write: (node: Node) => string): string {
  const cells: string[] = [];
  row.forEach((cell) => cells.push(write(cell).replace(/\|/g, "\\|").replace(/\n/g, " ")));
  return `| ${cells.join(" | ")} |`;
}

const DELIMITERS: Record<string, string> = { left: ":---", center: ":---:", right: "---:" };

const serializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
    bullet_list(state, node) {
      state.renderList(node, "  ", () => `${(node.attrs.bullet as string) || "-"} `);
    },
    list_item(state, node) {
      if (node.attrs.checked !== null) state.write(node.attrs.checked ? "[x] " : "[ ] ");
      state.renderContent(node);
    },
    markdown(state, node) {
      state.text(node.textContent, false);
      state.closeBlock(node);
    },
    figure(state, node) {
      state.write(
        imageBlock({
          url: node.attrs.src as string,
          alt: node.attrs.alt as string,
          caption: node.attrs.caption as string,
        }),
      );
      state.closeBlock(node);
    },
    table(state, node) {
      const inline = (cell: Node) =>
        serializer.serialize(schema.node("doc", null, [schema.node("paragraph", null, cell.content)]));
      const rows: string[] = [];
      node.forEach((row, _offset, index) => {
        rows.push(tableRow(row, inline));
        if (index === 0) {
          const delimiters: string[] = [];
          row.forEach((cell) => delimiters.push(DELIMITERS[cell.attrs.align as string] ?? "---"));
          rows.push(`| ${delimiters.join(" | ")} |`);
        }
      });
      state.write(rows.join("\n"));
      state.closeBlock(node);
    },
    table_row() {},
    table_cell() {},
    footnote_ref(state, node) {
      state.write(`[^${node.attrs.label as string}]`);
    },
    html(state, node) {
      state.write(node.attrs.source as string);
    },
  },
  {
    ...defaultMarkdownSerializer.marks,
    strike: { open: "~~", close: "~~", mixable: true, expelEnclosingWhitespace: true },
  },
  { escapeExtraCharacters: /</g },
);

/** One top-level node as Markdown, without the blank line after it. */
export function serializeBlock(node: Node): string {
  return serializer.serialize(schema.node("doc", null, Fragment.from(node))).replace(/\n+$/, "");
}

/** The text between the node at `index` and the next: as it was where either is untouched, else a blank line. */
function separator(doc: Node, index: number, from: VisualDocument): string {
  const node = doc.child(index);
  const origin = from.origins.get(node);
  if (origin && node !== from.last) return origin.after;
  return from.origins.get(doc.child(index + 1))?.before ?? "\n\n";
}

/** The document as Markdown: each untouched block's own source, the changed ones written anew. */
export function serializeMarkdown(doc: Node, from: VisualDocument): string {
  const parts: string[] = [from.prefix];
  doc.forEach((node, _offset, index) => {
    parts.push(from.origins.get(node)?.source ?? serializeBlock(node));
    if (index < doc.childCount - 1) parts.push(separator(doc, index, from));
  });
  parts.push(from.suffix);
  return parts.join("");
}

/** Where each top-level node starts in the Markdown `serializeMarkdown` writes (for moving the caret). */
export function blockOffsets(doc: Node, from: VisualDocument): number[] {
  const offsets: number[] = [];
  let at = from.prefix.length;
  doc.forEach((node, _offset, index) => {
    offsets.push(at);
    at += (from.origins.get(node)?.source ?? serializeBlock(node)).length;
    if (index < doc.childCount - 1) at += separator(doc, index, from).length;
  });
  return offsets;
}
