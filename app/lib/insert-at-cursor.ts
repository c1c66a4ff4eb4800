/**
 * Puts `text` where the writer's cursor is (replacing a selection), leaves the cursor after
 * it, and fires `input` so React and the form's validation see the change as typing.
 */
export function insertAtCursor(textarea: HTMLTextAreaElement, text: string): void {
  const { selectionStart, selectionEnd, value } = textarea;
  const before = value.slice(0, selectionStart);
  const after = value.slice(selectionEnd);
  // An image is a block of its own: blank lines around it unless it starts or ends the text.
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  textarea.focus();
  textarea.setRangeText(`${lead}${text}${trail}`, selectionStart, selectionEnd, "end");
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Sets an input's value as if the writer typed it. React tracks the value it last saw, so
 * the element's own setter is called, then `input` fired, for React's onChange to run.
 */
export function setInputValue(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}
