import { data } from "react-router";
import { type FormDefinition, type FormResult, validateForm } from "#domain/forms.ts";
import type { RouteErrorData } from "./route-errors.server";

export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please reload the page and try again.";

/** The submitted form; a body that is not a readable form is the client's mistake (400), never a 500. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data<RouteErrorData>({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
}

export type Submission<Field extends string, Values, Output> =
  | { ok: true; input: Output; values: Values; formData: FormData }
  | { ok: false; response: ReturnType<typeof data<FormResult<Field, Values>>> };

/** Reads and validates a form with the definition the browser used: the parsed input, or a 400 to return. */
export async function parseSubmission<Field extends string, Values, Output>(
  request: Request,
  definition: FormDefinition<Field, Values, Output>,
): Promise<Submission<Field, Values, Output>> {
  const formData = await readFormData(request);
  const values = definition.read(formData);
  const parsed = validateForm(definition, values);
  if (!parsed.success) {
    return { ok: false, response: formFailure(values, { errors: parsed.errors }, 400) };
  }
  return { ok: true, input: parsed.data, values, formData };
}

/** The one action-result shape: what was typed comes back, so nothing is lost, with why it was refused. */
export function formFailure<Field extends string, Values>(
  values: Values,
  { errors = {}, formError }: { errors?: FormResult<Field, Values>["errors"]; formError?: string },
  status: number,
  headers?: HeadersInit,
) {
  const result: FormResult<Field, Values> =
    formError === undefined ? { values, errors } : { values, errors, formError };
  return data(result, { status, headers });
}
