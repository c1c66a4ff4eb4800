import { escapeHtml } from "#domain/escape.ts";

/** The textarea's text and selection. */
export interface TextState {
  value: string;
  start: number;
  end: number;
}

/** Replace `value.slice(from, to)` with `insert`, then select `[selectStart, selectEnd)`. */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  selectStart: number;
  selectEnd: number;
}

/** `**bold**`, `_italic_`, `` `code` ``: wraps the selection, or a placeholder to type over. */
export function wrapSelection({ value, start, end }: TextState, marker: string, placeholder: string): TextEdit {
  const selected = value.slice(start, end) || placeholder;
  return {
    from: start,
    to: end,
    insert: `${marker}${selected}${marker}`,
    selectStart: start + marker.length,
    selectEnd: start + marker.length + selected.length,
  };
}

function lineStart(value: string, index: number): number {
  return value.lastIndexOf("\n", index - 1) + 1;
}

function lineEnd(value: string, index: number): number {
  const next = value.indexOf("\n", index);
  return next === -1 ? value.length : next;
}

/** `## `, `> `, `- `: put in front of every selected line. */
export function prefixLines({ value, start, end }: TextState, prefix: string): TextEdit {
  const from = lineStart(value, start);
  const to = lineEnd(value, Math.max(start, end - (end > start && value[end - 1] === "\n" ? 1 : 0)));
  const insert = value
    .slice(from, to)
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
  return { from, to, insert, selectStart: from + insert.length, selectEnd: from + insert.length };
}

/** `## `, `### `: the selected lines become headings of `level`, replacing any heading marker they had. */
export function setHeading({ value, start, end }: TextState, level: number): TextEdit {
  const from = lineStart(value, start);
  const to = lineEnd(value, Math.max(start, end - (end > start && value[end - 1] === "\n" ? 1 : 0)));
  const marker = `${"#".repeat(level)} `;
  const insert = value
    .slice(from, to)
    .split("\n")
    .map((line) => `${marker}${line.replace(/^#{1,6}\s+/, "")}`)
    .join("\n");
  return { from, to, insert, selectStart: from + insert.length, selectEnd: from + insert.length };
}

/** `1. `, `2. `…: the selected lines become a numbered list. */
export function numberLines({ value, start, end }: TextState): TextEdit {
  const from = lineStart(value, start);
  const to = lineEnd(value, Math.max(start, end - (end > start && value[end - 1] === "\n" ? 1 : 0)));
  const insert = value
    .slice(from, to)
    .split("\n")
    .map((line, index) => `${index + 1}. ${line}`)
    .join("\n");
  return { from, to, insert, selectStart: from + insert.length, selectEnd: from + insert.length };
}

/**
 * A block (a code block, a table, a figure) in place of the selection, with a blank line before
 * and after it unless the text starts or ends there; `select` is the part of `block` left selected
 * to type over.
 */
export function insertBlock(
  { value, start, end }: TextState,
  block: string,
  select: { start: number; end: number } = { start: block.length, end: block.length },
): TextEdit {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const at = start + lead.length;
  return {
    from: start,
    to: end,
    insert: `${lead}${block}${trail}`,
    selectStart: at + select.start,
    selectEnd: at + select.end,
  };
}

/** A fenced code block around the selected lines, or around "code" to type over. */
export function insertCodeBlock(state: TextState): TextEdit {
  const code = state.value.slice(state.start, state.end).replace(/\n$/, "") || "code";
  const fence = "```";
  return insertBlock(state, `${fence}\n${code}\n${fence}`, { start: 4, end: 4 + code.length });
}

/** A table of two columns and a row (GFM), its first heading selected to type over. */
export function insertTable(state: TextState): TextEdit {
  const table = "| Heading | Heading |\n| --- | --- |\n| Cell | Cell |";
  return insertBlock(state, table, { start: 2, end: 2 + "Heading".length });
}

/** What the image dialog asks for: the address, its text alternative ("" for a decorative image) and an optional caption. */
export interface ImageDetails {
  url: string;
  alt: string;
  caption: string;
}

/**
 * An image as Markdown writes it, `![alt](url)`; with a caption, a `<figure>` with its
 * `<figcaption>` (HTML in Markdown, which the body's pipeline keeps), all on consecutive lines
 * so Markdown reads it as one block.
 */
export function imageBlock({ url, alt, caption }: ImageDetails): string {
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const address = url.trim().replace(/[\s()<>]/g, encodeURIComponent);
  const text = oneLine(alt);
  if (oneLine(caption) === "") return `![${text.replace(/[[\]\\]/g, "")}](${address})`;
  return [
    "<figure>",
    `<img src="${escapeHtml(address)}" alt="${escapeHtml(text)}">`,
    `<figcaption>${escapeHtml(oneLine(caption))}</figcaption>`,
    "</figure>",
  ].join("\n");
}

/** `[text](https://)`, with the address selected to type over. */
export function insertLink({ value, start, end }: TextState): TextEdit {
  const text = value.slice(start, end) || "link text";
  const url = "https://";
  const insert = `[${text}](${url})`;
  const urlStart = start + text.length + 3;
  return { from: start, to: end, insert, selectStart: urlStart, selectEnd: urlStart + url.length };
}

const LIST_ITEM = /^(\s*)([-*+]|(\d+)([.)]))(\s+)(\[[ xX]\]\s+)?/;

/**
 * Enter inside a list item starts the next item (numbered lists count on, task items start
 * unticked); Enter on an empty item ends the list with a blank line, so what is typed next is
 * a paragraph after the list, not more of its last item. Undefined: an ordinary new line.
 */
export function continueList({ value, start, end }: TextState): TextEdit | undefined {
  if (start !== end) return undefined;
  const from = lineStart(value, start);
  const line = value.slice(from, start);
  const match = LIST_ITEM.exec(line);
  if (!match) return undefined;
  const [marker, indent = "", bullet = "", number, delimiter, space = " ", task] = match;
  if (line.slice(marker.length).trim() === "" && lineEnd(value, start) === start) {
    return { from, to: start, insert: "\n", selectStart: from + 1, selectEnd: from + 1 };
  }
  const nextBullet = number === undefined ? bullet : `${Number(number) + 1}${delimiter}`;
  const insert = `\n${indent}${nextBullet}${space}${task ? "[ ] " : ""}`;
  return { from: start, to: start, insert, selectStart: start + insert.length, selectEnd: start + insert.length };
}

/** Words as a writer counts them: runs of letters or digits, Markdown punctuation aside. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}
