import { data, type RouterContextProvider } from "react-router";
import type { DomainError, DomainErrorCode } from "#domain/errors.ts";
import { type FormDefinition, type FormResult, validateForm } from "#domain/forms.ts";
import { answerDomainErrors, type DomainFailure, type RouteErrorData } from "./route-errors.server";

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
  return judgeSubmission(await readFormData(request), definition);
}

/** Judges form data already read, for an action that first reads which rules apply (a draft's or the full ones). */
export function judgeSubmission<Field extends string, Values, Output>(
  formData: FormData,
  definition: FormDefinition<Field, Values, Output>,
): Submission<Field, Values, Output> {
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

/** A refusal's message per error code: fixed, or made from the failure (a wait from its `Retry-After`). */
export type RefusalMessages = Partial<Record<DomainErrorCode, string | ((failure: DomainFailure) => string)>>;

export type Outcome<T, Field extends string, Values> =
  { ok: true; value: T } | { ok: false; response: ReturnType<typeof formFailure<Field, Values>> };

/**
 * Runs what a valid form asked for. A domain error becomes the form's refusal, with its status
 * and `Retry-After`: the message on `field`, or on the form when no field is named. Anything
 * else goes on to the error boundary (answerDomainErrors), so actions hold no try blocks.
 */
export async function perform<T, Field extends string, Values>(
  context: Readonly<RouterContextProvider>,
  step: () => Promise<T>,
  { values, field, messages = {} }: { values: Values; field?: Field; messages?: RefusalMessages },
): Promise<Outcome<T, Field, Values>> {
  const answer = (failure: DomainFailure, error: DomainError): Outcome<T, Field, Values> => {
    const chosen = messages[error.code];
    const message = typeof chosen === "function" ? chosen(failure) : (chosen ?? failure.message);
    const refusal = field
      ? { errors: { [field]: message } as FormResult<Field, Values>["errors"] }
      : { formError: message };
    return { ok: false, response: formFailure(values, refusal, failure.status, failure.headers) };
  };
  return answerDomainErrors(context, { answer }, async () => ({ ok: true as const, value: await step() }));
}

/** An action's success that hands back something shown only once, in the one result shape. */
export function formCreated<Field extends string, Values, Created>(
  values: Values,
  created: Created,
): FormResult<Field, Values, Created> {
  return { values, errors: {}, created };
}
