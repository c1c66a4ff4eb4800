import type { z } from "zod";

export type FieldErrors<Fields extends string = string> = Partial<Record<Fields, string>>;

/** The first message for each field, keyed by the field's name, as forms show them. */
export function collectFieldErrors<Fields extends string>(error: z.ZodError): FieldErrors<Fields> {
  const errors: FieldErrors<Fields> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form") as Fields;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Reads one text field from submitted form data; a file or a missing field reads as "". */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
