import { Form } from "react-router";
import { CheckboxField, FormError, TextAreaField, TextField } from "~/components/ui/field";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import type { FormResult } from "#domain/forms.ts";
import {
  FEDIVERSE_BLOCKED_MAX,
  FEDIVERSE_HANDLE_MAX,
  type FediverseSettings,
  type FediverseSettingsField,
  fediverseSettingsForm,
} from "#domain/fediverse.ts";

type SettingsValues = ReturnType<typeof fediverseSettingsForm.read>;

/** The handle, follow approval and blocked list: posts to fediverse-settings.tsx. */
export function FediverseSettingsForm({
  settings,
  host,
  result,
  busy,
}: {
  settings: FediverseSettings;
  /** The site's host, shown after the handle so the owner sees the whole address. */
  host: string;
  result: FormResult<FediverseSettingsField, SettingsValues> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(fediverseSettingsForm, { id: "fediverse-settings", result });
  const values = result?.values ?? settings;
  return (
    // Keyed by what is stored, so the fields show the saved values after each save.
    <Form
      key={JSON.stringify(settings)}
      method="post"
      action="/admin/fediverse/settings"
      {...form.props}
      className="space-y-5"
    >
      <FormError message={form.formError} />
      <TextField
        {...form.field("handle")}
        label="Handle"
        hint={`Letters and digits, as in @${values.handle || "blog"}@${host}. Changing it keeps every follower: they follow the blog, not the name.`}
        autoComplete="off"
        spellCheck={false}
        maxLength={FEDIVERSE_HANDLE_MAX}
        defaultValue={values.handle}
        className={`${inputStyles} max-w-xs`}
      />
      <CheckboxField
        {...form.field("approveFollowsByHand")}
        label="Approve follow requests by hand"
        hint="Off, anyone may follow at once. On, each request waits below until you approve or reject it."
        defaultChecked={values.approveFollowsByHand}
        className="mt-1 h-4 w-4 accent-indigo-600"
      />
      <TextAreaField
        {...form.field("blocked")}
        label="Blocked servers and accounts"
        hint="One a line: a server (spam.example blocks it and its subdomains) or an account's address (https://spam.example/users/someone). They cannot follow, like, boost or reply, and a blocked follower is dropped."
        rows={5}
        maxLength={FEDIVERSE_BLOCKED_MAX}
        defaultValue={values.blocked}
        className={`${inputStyles} font-mono text-sm`}
      />
      <button type="submit" disabled={busy} className={buttonStyles.primary}>
        Save fediverse settings
      </button>
    </Form>
  );
}
