import type { ReactNode } from "react";
import type { FieldState } from "~/lib/forms";
import { fieldErrorStyles, fieldHintStyles, formErrorStyles, labelStyles } from "./styles";

/** What a Field hands its control, so label, hint and error are wired the same way everywhere. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  onChange: () => void;
  autoFocus: true | undefined;
}

interface FieldProps extends FieldState {
  label: ReactNode;
  hint?: ReactNode;
  /** Another element (a form-level alert) that already says what is wrong with this field. */
  describedBy?: string;
  children: (control: ControlProps) => ReactNode;
}

/** One form field: label, control, hint and error, linked by aria-describedby. */
export function Field({ id, error, onEdit, autoFocus, label, hint, describedBy, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      {children(controlProps({ id, error, onEdit, autoFocus, hint, describedBy }))}
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
}: Omit<FieldProps, "label" | "children">): ControlProps {
  const describedByIds = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined, describedBy]
    .filter(Boolean)
    .join(" ");
  return {
    id,
    "aria-invalid": error || describedBy ? true : undefined,
    "aria-describedby": describedByIds || undefined,
    onChange: onEdit,
    autoFocus: autoFocus || undefined,
  };
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

/** A checkbox with its label beside it, wired like every other Field. */
export function CheckboxField({
  id,
  error,
  onEdit,
  autoFocus,
  label,
  hint,
  children,
}: Omit<FieldProps, "describedBy"> & { children: (control: ControlProps) => ReactNode }) {
  return (
    <div className="flex items-start gap-2">
      {children(controlProps({ id, error, onEdit, autoFocus, hint }))}
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <FieldNotes id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}
