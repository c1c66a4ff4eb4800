import { Form } from "react-router";
import { FormError, TextField } from "~/components/ui/field";
import { buttonStyles, fileInputStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import { EMAIL_MAX } from "#domain/account.ts";
import type { FormResult } from "#domain/forms.ts";
import {
  type AddSubscriberValues,
  addSubscriberForm,
  type ImportSubscribersValues,
  importSubscribersForm,
  SUBSCRIBER_CSV_MAX_BYTES,
} from "#domain/subscribers.ts";

const checkboxStyles = "mt-0.5 h-4 w-4 rounded border-slate-300 accent-indigo-600";

/** A consent box: ticked, its value is "yes", which both schemas read. */
function ConsentBox({ id, label, error }: { id: string; label: string; error: string | undefined }) {
  return (
    <div>
      <div className="flex items-start gap-2">
        <input
          id={id}
          name="consent"
          type="checkbox"
          value="yes"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={checkboxStyles}
        />
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One address the writer adds because its owner asked them: posts to subscribers-add.tsx. */
export function AddSubscriberForm({
  result,
  busy,
}: {
  result: FormResult<"email" | "consent", AddSubscriberValues> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(addSubscriberForm, { id: "add-subscriber", result });
  return (
    <Form method="post" action="/admin/subscribers/add" {...form.props} className="space-y-3">
      <FormError message={form.formError} />
      <TextField
        {...form.field("email")}
        label="Email"
        type="email"
        autoComplete="off"
        maxLength={EMAIL_MAX}
        defaultValue={result?.values.email ?? ""}
      />
      <ConsentBox id="add-subscriber-consent" label="They asked to subscribe" error={form.field("consent").error} />
      <button type="submit" disabled={busy} className={buttonStyles.primary}>
        Add subscriber
      </button>
    </Form>
  );
}

/** A CSV of addresses: posts to subscribers-import.tsx, which starts the import and goes back to the list. */
export function ImportSubscribersForm({
  result,
  busy,
}: {
  result: FormResult<"file" | "consent", ImportSubscribersValues> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(importSubscribersForm, { id: "import-subscribers", result });
  return (
    <Form
      method="post"
      action="/admin/subscribers/import"
      encType="multipart/form-data"
      {...form.props}
      className="space-y-3"
    >
      <FormError message={form.formError} />
      <TextField
        {...form.field("file")}
        label="CSV file"
        hint={`A column named email (Ghost's members export and Substack's subscriber export both have one); at most ${SUBSCRIBER_CSV_MAX_BYTES / 1024 / 1024} MB. Nobody is emailed.`}
        type="file"
        accept=".csv,text/csv"
        className={fileInputStyles}
      />
      <ConsentBox
        id="import-subscribers-consent"
        label="These people agreed to receive this newsletter"
        error={form.field("consent").error}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Ticked, the new addresses are active and get the next post. Unticked, they are pending: they get nothing until
        they subscribe themselves and confirm. Addresses already on the list keep their state.
      </p>
      <button type="submit" disabled={busy} className={buttonStyles.secondary}>
        Import CSV
      </button>
    </Form>
  );
}
