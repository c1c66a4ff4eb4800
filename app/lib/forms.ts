import { type FormEvent, useEffect, useRef, useState } from "react";
import { type FieldErrors, type FormDefinition, type FormResult, validateForm } from "#domain/forms.ts";

export interface UseValidatedFormOptions<Field extends string, Values = unknown> {
  /** Prefix of every control's id, unique on the page: `${id}-${field}`. */
  id: string;
  /** What the action answered, when it did not succeed. */
  result: FormResult<Field, unknown, unknown> | undefined;
  /**
   * Other rules for a submit button named `intent` with this value (the editor's "Save draft"),
   * judged in the browser as its action judges them.
   */
  intents?: Readonly<Record<string, FormDefinition<Field, Values, unknown>>>;
}

/** Props a Field hands its control: the id its label points at, and how errors are announced. */
export interface FieldState {
  id: string;
  /** The field's name in the form, which its control posts under. */
  name: string;
  error: string | undefined;
  /** Editing a field clears its message (docs/spec.md §5). */
  onEdit: () => void;
  /** The first field the action refused: focused as the page loads, when React does not run. */
  autoFocus?: boolean;
}

function focusFirstInvalid<Field extends string>(
  form: HTMLFormElement | null,
  id: string,
  fields: readonly Field[],
  errors: FieldErrors<Field>,
) {
  const first = fields.find((field) => errors[field]);
  if (form && first) form.querySelector<HTMLElement>(`#${CSS.escape(`${id}-${first}`)}`)?.focus();
}

/**
 * The one form pattern (docs/decisions/0004-forms-errors-and-layers.md). The browser checks the
 * submission with the schema the action uses, so most mistakes never leave the page;
 * without JavaScript, or on a page that loads none (docs/decisions/0011), the action's answer
 * shows the same messages. Either way the first invalid field gets focus.
 */
export function useValidatedForm<Field extends string, Values, Output>(
  definition: FormDefinition<Field, Values, Output>,
  { id, result, intents }: UseValidatedFormOptions<Field, Values>,
) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>(result?.errors ?? {});
  const [shownResult, setShownResult] = useState(result);
  if (result !== shownResult) {
    setShownResult(result);
    setErrors(result?.errors ?? {});
  }

  useEffect(() => {
    if (result) focusFirstInvalid(formRef.current, id, definition.fields, result.errors);
  }, [result, id, definition.fields]);

  const firstRefused = result ? definition.fields.find((field) => result.errors[field]) : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const intent = submitter instanceof HTMLButtonElement && submitter.name === "intent" ? submitter.value : "";
    const rules: FormDefinition<Field, Values, unknown> = intents?.[intent] ?? definition;
    const parsed = validateForm(rules, rules.read(new FormData(event.currentTarget)));
    if (parsed.success) {
      setErrors({});
      return;
    }
    event.preventDefault();
    const found = parsed.errors;
    setErrors(found);
    focusFirstInvalid(event.currentTarget, id, definition.fields, found);
  };

  const clearError = (field: Field) =>
    setErrors((current) => {
      if (!current[field]) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest as FieldErrors<Field>;
    });

  return {
    /** Spread on the <Form>: the browser's own tooltips give way to the spec's messages. */
    props: { ref: formRef, noValidate: true, onSubmit },
    errors,
    formError: result?.formError,
    field: (name: Field): FieldState => ({
      id: `${id}-${name}`,
      name,
      error: errors[name],
      onEdit: () => clearError(name),
      autoFocus: name === firstRefused,
    }),
    clearError,
  };
}
