/**
 * Word's lists, made lists again before a paste is parsed.
 *
 * Word (on Windows and macOS) puts no <ul> or <ol> on the clipboard: each item is a paragraph whose
 * style says `mso-list:l<list> level<depth> lfo<n>`, with its bullet or number typed out in a
 * `mso-list:Ignore` span. Parsed as it is, a list would arrive as paragraphs starting "·" or "1.".
 * Word on the web and every other source write real lists, and go through untouched.
 */

const LIST_ITEM_STYLE = /mso-list:\s*(l\d+)\s+level(\d+)/i;
const MARKER_STYLE = /mso-list:\s*Ignore/i;
/** A number or letter marker ("1.", "a)", "iv.") makes an ordered list; anything else ("·", "o", "§") a bulleted one. */
const ORDERED_MARKER = /^\(?([0-9]+|[a-z]{1,4})[.)]$/i;

interface OpenList {
  depth: number;
  list: HTMLElement;
}

/** The pasted HTML with Word's list paragraphs as nested <ul>/<ol> lists; any other HTML unchanged. */
export function wordListsAsLists(html: string): string {
  if (!LIST_ITEM_STYLE.test(html)) return html;
  const document = new DOMParser().parseFromString(html, "text/html");
  let open: OpenList[] = [];
  let previous: { item: Node; list: string } | undefined;

  for (const paragraph of document.body.querySelectorAll("p")) {
    const style = LIST_ITEM_STYLE.exec(paragraph.getAttribute("style") ?? "");
    if (!style) continue;
    const [, listName, depthText] = style;
    const depth = Number(depthText);
    // One list is a run of its items side by side: a paragraph between two runs ends the first.
    if (!previous || previous.list !== listName || !followsDirectly(previous.item, paragraph)) open = [];

    const ordered = ORDERED_MARKER.test(takeMarker(paragraph));
    while (open.length > 0 && open.at(-1)!.depth > depth) open.pop();
    let current = open.at(-1);
    if (!current || current.depth < depth) {
      const list = document.createElement(ordered ? "ol" : "ul");
      const parentItem = current?.list.lastElementChild;
      if (parentItem) parentItem.append(list);
      else paragraph.before(list);
      current = { depth, list };
      open.push(current);
    }

    const item = document.createElement("li");
    const text = document.createElement("p");
    text.append(...paragraph.childNodes);
    item.append(text);
    current.list.append(item);
    // The paragraph's place is kept, so the next paragraph can be seen to follow this item.
    const place = document.createComment("list item");
    paragraph.replaceWith(place);
    previous = { item: place, list: listName! };
  }
  return document.body.innerHTML;
}

/** Removes an item's typed-out marker and answers its text ("1.", "·"). */
function takeMarker(paragraph: Element): string {
  const marker = [...paragraph.querySelectorAll("span")].find((span) =>
    MARKER_STYLE.test(span.getAttribute("style") ?? ""),
  );
  if (!marker) return "";
  const text = [...marker.childNodes]
    .filter((node) => node.nodeType === node.TEXT_NODE)
    .map((node) => node.textContent ?? "")
    .join("")
    .trim();
  marker.remove();
  return text;
}

/** Whether only white space and comments lie between a list item's place and the next paragraph. */
function followsDirectly(place: Node, paragraph: Element): boolean {
  for (let node = place.nextSibling; node; node = node.nextSibling) {
    if (node === paragraph) return true;
    if (node.nodeType === node.COMMENT_NODE) continue;
    if (node.nodeType === node.TEXT_NODE && !node.textContent?.trim()) continue;
    return false;
  }
  return false;
}
