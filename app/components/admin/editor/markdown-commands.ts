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

/** `[text](https://)`, with the address selected to type over. */
export function insertLink({ value, start, end }: TextState): TextEdit {
  const text = value.slice(start, end) || "link text";
  const url = "https://";
  const insert = `[${text}](${url})`;
  const urlStart = start + text.length + 3;
  return { from: start, to: end, insert, selectStart: urlStart, selectEnd: urlStart + url.length };
}

/** `![description](url)` for an image the writer gives by address. */
export function insertImage({ value, start, end }: TextState, url: string): TextEdit {
  const description = value.slice(start, end) || "Image description";
  const insert = `![${description}](${url})`;
  return { from: start, to: end, insert, selectStart: start + 2, selectEnd: start + 2 + description.length };
}

const LIST_ITEM = /^(\s*)([-*+]|(\d+)([.)]))(\s+)(\[[ xX]\]\s+)?/;

/**
 * Enter inside a list item starts the next item (numbered lists count on, task items start
 * unticked); Enter on an empty item ends the list. Undefined: an ordinary new line.
 */
export function continueList({ value, start, end }: TextState): TextEdit | undefined {
  if (start !== end) return undefined;
  const from = lineStart(value, start);
  const line = value.slice(from, start);
  const match = LIST_ITEM.exec(line);
  if (!match) return undefined;
  const [marker, indent = "", bullet = "", number, delimiter, space = " ", task] = match;
  if (line.slice(marker.length).trim() === "" && lineEnd(value, start) === start) {
    return { from, to: start, insert: "", selectStart: from, selectEnd: from };
  }
  const nextBullet = number === undefined ? bullet : `${Number(number) + 1}${delimiter}`;
  const insert = `\n${indent}${nextBullet}${space}${task ? "[ ] " : ""}`;
  return { from: start, to: start, insert, selectStart: start + insert.length, selectEnd: start + insert.length };
}

/** Words as a writer counts them: runs of letters or digits, Markdown punctuation aside. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}
