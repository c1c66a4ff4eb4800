/**
 * Text as HTML that shows exactly that text, in an element or a quoted attribute. Numeric
 * references, so the result reads the same in a browser and in an email client's parser.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
