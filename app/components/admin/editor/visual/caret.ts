import type { Node } from "prosemirror-model";
import { blockOffsets, serializeBlock, type VisualDocument } from "./markdown";

/** The last few characters before the caret, enough to find the same place in the other view. */
const TAIL = 16;

/** Markdown's own characters, left out when looking for the caret's text in the visual view. */
const plainText = (markdown: string) =>
  markdown
    .replace(/\]\([^)]*\)/g, "")
    .replace(/^\s*(?:[-+*>]|\d+[.)]|#{1,6}|\[[ xX]\])\s+/gm, "")
    .replace(/[*_~`[\]\\]/g, "");

function blockAt(offsets: number[], offset: number): number {
  let index = 0;
  while (index + 1 < offsets.length && offsets[index + 1]! <= offset) index++;
  return index;
}

/** The position in the document that stands where `offset` stands in its Markdown. */
export function positionFromMarkdown(read: VisualDocument, markdown: string, offset: number): number {
  const { doc } = read;
  const offsets = blockOffsets(doc, read);
  const index = blockAt(offsets, offset);
  let start = 0;
  for (let child = 0; child < index; child++) start += doc.child(child).nodeSize;
  const node = doc.child(index);
  const tail = plainText(markdown.slice(offsets[index], offset)).slice(-TAIL);
  const found = tail === "" ? -1 : node.textContent.indexOf(tail);
  return found === -1 ? start + 1 : positionOfText(node, start, found + tail.length);
}

/** The position after the `count`th character of a node's text. */
function positionOfText(node: Node, nodeStart: number, count: number): number {
  let seen = 0;
  let position = nodeStart + 1;
  node.descendants((child, offset) => {
    if (seen >= count || !child.isText) return seen < count;
    const length = child.text!.length;
    if (seen + length >= count) {
      position = nodeStart + 1 + offset + (count - seen);
      seen = count;
      return false;
    }
    seen += length;
    return true;
  });
  return position;
}

/** The offset in the Markdown that stands where `position` stands in the document. */
export function markdownOffset(read: VisualDocument, doc: Node, position: number): number {
  const offsets = blockOffsets(doc, read);
  let start = 0;
  let index = 0;
  while (index + 1 < doc.childCount && start + doc.child(index).nodeSize <= position) {
    start += doc.child(index).nodeSize;
    index++;
  }
  const node = doc.child(index);
  const source = read.origins.get(node)?.source ?? serializeBlock(node);
  const tail = node.textBetween(0, Math.max(0, Math.min(position - start - 1, node.content.size))).slice(-TAIL);
  const found = tail === "" ? -1 : source.indexOf(tail);
  return offsets[index]! + (found === -1 ? 0 : found + tail.length);
}
