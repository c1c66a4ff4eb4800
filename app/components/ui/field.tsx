import type {
  ChangeEvent,
  ChangeEventHandler,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";
import type { FieldState } from "~/lib/forms";
import { checkboxStyles, fieldErrorStyles, fieldHintStyles, formErrorStyles, inputStyles, labelStyles } from "./styles";

/** What a Field hands its control, so label, hint and error are wired the same way everywhere. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required": true | undefined;
  onChange: () => void;
  autoFocus: true | undefined;
}

interface FieldProps extends Omit<FieldState, "name"> {
  label: ReactNode;
  hint?: ReactNode;
  /** Another element (a form-level alert) that already says what is wrong with this field. */
  describedBy?: string;
  /**
   * A field the save needs: marked before submitting, visibly and to screen readers
   * (aria-required), but without HTML `required`, so the action's own messages are the ones shown.
   */
  mandatory?: boolean;
  children: (control: ControlProps) => ReactNode;
}

/** One form field: label, control, hint and error, linked by aria-describedby. */
export function Field({ id, error, onEdit, autoFocus, label, hint, describedBy, mandatory, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
        {mandatory ? <MandatoryMark /> : null}
      </label>
      {children(controlProps({ id, error, onEdit, autoFocus, hint, describedBy, mandatory }))}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The props that tie a control to its hint, its error and any other message about it. */
function controlProps({
  id,
  error,
  onEdit,
  autoFocus,
  hint,
  describedBy,
  mandatory,
}: Omit<FieldProps, "label" | "children">): ControlProps {
  const describedByIds = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined, describedBy]
    .filter(Boolean)
    .join(" ");
  return {
    id,
    "aria-invalid": error || describedBy ? true : undefined,
    "aria-describedby": describedByIds || undefined,
    "aria-required": mandatory || undefined,
    onChange: onEdit,
    autoFocus: autoFocus || undefined,
  };
}

/** The visible mark of a mandatory field; screen readers hear "required" from the control instead. */
export function MandatoryMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700 dark:text-red-300">
      *
    </span>
  );
}

function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error: string | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className={fieldHintStyles}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={fieldErrorStyles}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The form's own message (why saving failed, why sign-in was refused), announced as an alert. */
export function FormError({ id, message }: { id?: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={formErrorStyles}>
      {message}
    </p>
  );
}

/** What a field says about its control: its state in the form (form.field(…)), its label and hint. */
type FieldFrame = Omit<FieldProps, "children"> & { name: string };

/** The control's own attributes; what Field wires (id, aria, autoFocus) it keeps. `onChange` runs before the field's. */
type OwnControl<Element, Attributes> = Omit<Attributes, keyof ControlProps | "children" | "name"> & {
  onChange?: ChangeEventHandler<Element>;
};

/** Runs the control's own change handler, then the field's (which clears its message). */
function changeHandler<Element>(own: ChangeEventHandler<Element> | undefined, field: () => void) {
  return own
    ? (event: ChangeEvent<Element>) => {
        own(event);
        field();
      }
    : field;
}

/** Parts a field's props into what Field takes, the name, and the control's own attributes. */
function partField<Control>({
  id,
  name,
  error,
  onEdit,
  autoFocus,
  label,
  hint,
  describedBy,
  mandatory,
  ...own
}: FieldFrame & Control) {
  return { frame: { id, error, onEdit, autoFocus, label, hint, describedBy, mandatory }, name, own };
}

/** A Field whose control is one input (text, email, url, number, file…), in the house look unless `className` says otherwise. */
export function TextField(props: FieldFrame & OwnControl<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>) {
  const { frame, name, own } = partField(props);
  const { onChange, className = inputStyles, ...input } = own;
  return (
    <Field {...frame}>
      {(control) => (
        <input
          {...control}
          name={name}
          {...input}
          onChange={changeHandler(onChange, control.onChange)}
          className={className}
        />
      )}
    </Field>
  );
}

/** A Field whose control is a textarea, in the house look unless `className` says otherwise. */
export function TextAreaField(
  props: FieldFrame & OwnControl<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>,
) {
  const { frame, name, own } = partField(props);
  const { onChange, className = inputStyles, ...textarea } = own;
  return (
    <Field {...frame}>
      {(control) => (
        <textarea
          {...control}
          name={name}
          {...textarea}
          onChange={changeHandler(onChange, control.onChange)}
          className={className}
        />
      )}
    </Field>
  );
}

/** A choice in a SelectField: a value that is its own label, or a value with its label. */
export type SelectOption = string | { value: string; label: string };

/**
 * A Field whose control is a select of `options`, after an empty first choice when `placeholder`
 * is given, in the house look unless `className` says otherwise.
 */
export function SelectField(
  props: FieldFrame &
    OwnControl<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>> & {
      options: readonly SelectOption[];
      placeholder?: string;
    },
) {
  const { frame, name, own } = partField(props);
  const { onChange, className = inputStyles, options, placeholder, ...select } = own;
  return (
    <Field {...frame}>
      {(control) => (
        <select
          {...control}
          name={name}
          {...select}
          onChange={changeHandler(onChange, control.onChange)}
          className={className}
        >
          {placeholder === undefined ? null : <option value="">{placeholder}</option>}
          {options.map((option) => {
            const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it, wired like every other Field. */
export function CheckboxField(
  props: Omit<FieldFrame, "describedBy" | "mandatory"> &
    OwnControl<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>,
) {
  const { id, error, onEdit, autoFocus, label, hint, name, onChange, className = checkboxStyles, ...input } = props;
  return (
    <div className="flex items-start gap-2">
      <input
        {...controlProps({ id, error, onEdit, autoFocus, hint })}
        name={name}
        type="checkbox"
        {...input}
        onChange={changeHandler(onChange, onEdit)}
        className={className}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <FieldNotes id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}
