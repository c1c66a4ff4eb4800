import * as core from "zod/v4/core";

/** The first message for each field, keyed by the field's name, as forms show them. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/**
 * The one shape every form action answers with when it did not do what was asked:
 * what was typed (so nothing is lost), the per-field messages, and a message for the form.
 * An action that did what was asked redirects, with any notice in the flash; only what must
 * be shown once and cannot ride a redirect (recovery codes, an invitation link) comes back
 * as `created`, typed by the action.
 */
export interface FormResult<Field extends string = string, Values = Partial<Record<Field, unknown>>, Created = never> {
  values: Values;
  errors: FieldErrors<Field>;
  formError?: string;
  created?: Created;
}

/**
 * A form as both sides know it: the fields in the order a person fills them in (the first
 * invalid one gets focus), how to read them from FormData, and the schema that judges them.
 * The browser and the action use the same definition.
 */
export interface FormDefinition<Field extends string, Values, Output> {
  fields: readonly Field[];
  read: (formData: FormData) => Values;
  /** The zod schema that judges the values (built on `domain/zod.ts`). */
  schema: core.$ZodType<Output>;
}

export function defineForm<Field extends string, Values, Output>(
  definition: FormDefinition<Field, Values, Output>,
): FormDefinition<Field, Values, Output> {
  return definition;
}

/** Judges `values` with the form's schema; the same call in the browser and in the action. */
export function validateForm<Field extends string, Values, Output>(
  definition: FormDefinition<Field, Values, Output>,
  values: Values,
): { success: true; data: Output } | { success: false; errors: FieldErrors<Field> } {
  const parsed = core.safeParse(definition.schema, values);
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, errors: collectFieldErrors<Field>(parsed.error) };
}

export function collectFieldErrors<Field extends string>(error: core.$ZodError): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form") as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

// C0 controls but tab, line feed and carriage return, and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * Text as a person could have typed it. Control characters (NUL above all, which
 * PostgreSQL refuses) are dropped rather than refused: no keyboard produces them, so
 * dropping loses nothing a writer meant. Browsers send a textarea's line breaks as CRLF;
 * reading them as LF makes the server count the same length the browser checked.
 * Every form field and every query parameter a route reads goes through here.
 */
export function cleanText(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "").replace(/\r\n?/g, "\n");
}

/** A `JSON.parse` reviver: every string in the JSON cleaned as a form field is. */
export function cleanJsonStrings(_key: string, value: unknown): unknown {
  return typeof value === "string" ? cleanText(value) : value;
}

/** One text field from submitted form data; a file or a missing field reads as "". */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? cleanText(value) : "";
}

/** Every text value of a repeated field, in order. */
export function formTexts(formData: FormData, name: string): string[] {
  return formData.getAll(name).flatMap((value) => (typeof value === "string" ? [cleanText(value)] : []));
}

/** One query-string parameter, read as cleanly as a form field; missing reads as "". */
export function queryText(url: URL, name: string): string {
  return cleanText(url.searchParams.get(name) ?? "");
}
