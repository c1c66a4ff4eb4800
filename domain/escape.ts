/**
 * The one place text becomes markup. Two forms, one table of characters:
 * - `escapeHtml` for the HTML this blog writes for browsers and mail clients (pages, emails,
 *   the fediverse): numeric references, so every client's parser reads them alike, and `'`
 *   too, so a single-quoted attribute is safe;
 * - `escapeXml` for XML (feeds, sitemaps) and for HTML that stays readable source (an address
 *   rewritten in a body, the editor's image tag): the named references both languages know,
 *   less the characters XML 1.0 cannot carry even as references (decision 0013).
 */

/**
 * Control characters but tab and line breaks (XML 1.0 cannot carry C0 ones, and C1 ones are
 * junk to a reader), U+FFFE, U+FFFF and lone surrogates.
 */
const NOT_XML = /(?![\t\n\r])[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu;
const XML_UNSAFE = new RegExp(`[&<>"]|${NOT_XML.source}`, "gu");
const NAMED: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Text as HTML that shows exactly that text, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Text as XML (or HTML) text or a double-quoted attribute value, without what XML cannot carry. */
export function escapeXml(text: string): string {
  return text.replace(XML_UNSAFE, (char) => NAMED[char] ?? "");
}

/** Markup as it is, less the characters XML cannot carry: what may go inside a CDATA section. */
export function withoutNonXmlCharacters(markup: string): string {
  return markup.replace(NOT_XML, "");
}
