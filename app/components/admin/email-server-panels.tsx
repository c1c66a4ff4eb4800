import { Form } from "react-router";
import { Panel } from "~/components/admin/panel";
import { Field, FormError, SelectField, TextField } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import {
  EMAIL_HOST_MAX,
  EMAIL_SECURITIES,
  EMAIL_SECURITY_LABELS,
  EMAIL_SET_BY_ENVIRONMENT_MESSAGE,
  EMAIL_USER_MAX,
  emailServerForm,
  type EmailServerView,
  testEmailForm,
} from "#domain/email-server.ts";
import type { FormResult } from "#domain/forms.ts";

type ServerField = (typeof emailServerForm.fields)[number];

/** The mail server's fields; read-only, with the reason, while the environment sets them. */
export function EmailServerPanel({
  server,
  result,
  busy,
}: {
  server: EmailServerView;
  result: FormResult<ServerField> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(emailServerForm, { id: "email-server", result });
  const fixed = server.source === "environment";
  const typed = (result?.values ?? {}) as Partial<Record<ServerField, string>>;
  const value = (name: Exclude<ServerField, "password">) => typed[name] ?? String(server[name]);
  return (
    <Panel id="email-server-heading" title="Mail server">
      {fixed ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {EMAIL_SET_BY_ENVIRONMENT_MESSAGE} Change them there and restart the server, or unset them to set email up
          here.
        </p>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-400">
          Your email provider's SMTP settings: its help pages name the server, the port and the security. Email goes out
          once a test email has gone through.
        </p>
      )}
      <Form method="post" action="/admin/settings/email/save" {...form.props} className="space-y-4">
        <FormError message={form.formError} />
        <fieldset disabled={fixed} className="space-y-4">
          <TextField
            {...form.field("host")}
            label="SMTP server"
            hint="Such as smtp.example.com."
            autoComplete="off"
            spellCheck={false}
            maxLength={EMAIL_HOST_MAX}
            defaultValue={value("host")}
          />
          <TextField
            {...form.field("port")}
            label="Port"
            type="number"
            inputMode="numeric"
            min={1}
            max={65535}
            defaultValue={value("port")}
            className={`${inputStyles} max-w-40`}
          />
          <SelectField
            {...form.field("security")}
            label="Security"
            options={EMAIL_SECURITIES.map((security) => ({ value: security, label: EMAIL_SECURITY_LABELS[security] }))}
            defaultValue={value("security")}
          />
          <TextField
            {...form.field("user")}
            label="User name"
            hint="Often your email address. Leave it empty for a server that asks for none."
            autoComplete="off"
            spellCheck={false}
            maxLength={EMAIL_USER_MAX}
            defaultValue={value("user")}
          />
          <Field
            {...form.field("password")}
            label="Password"
            hint={
              server.passwordSaved
                ? "Saved — leave it empty to keep it. It is stored encrypted and never shown again."
                : "Stored encrypted, and never shown again."
            }
          >
            {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" />}
          </Field>
          <TextField
            {...form.field("fromAddress")}
            label="From address"
            hint="The address every email is sent from; your provider must allow it. The name beside it is the sender name in Settings."
            type="email"
            autoComplete="off"
            defaultValue={value("fromAddress")}
          />
          {fixed ? null : (
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Save email settings
            </button>
          )}
        </fieldset>
      </Form>
    </Panel>
  );
}

/** "Send a test email": the mail server's answer comes back in words. */
export function TestEmailPanel({
  server,
  writerEmail,
  result,
  busy,
}: {
  server: EmailServerView;
  writerEmail: string;
  result: FormResult<"to"> | undefined;
  busy: boolean;
}) {
  const form = useValidatedForm(testEmailForm, { id: "test-email", result });
  const typed = result?.values as { to?: string } | undefined;
  return (
    <Panel id="test-email-heading" title="Send a test email">
      <p className="text-sm text-slate-700 dark:text-slate-400">
        {server.on
          ? "Email is on: readers can subscribe, and new posts can be emailed."
          : "Email is off until a test email goes through with the saved settings."}
      </p>
      <Form method="post" action="/admin/settings/email/test" {...form.props} className="space-y-4">
        <FormError message={form.formError} />
        <TextField
          {...form.field("to")}
          label="Send to"
          hint={`Leave it empty to send to your own address, ${writerEmail}.`}
          type="email"
          defaultValue={typed?.to ?? ""}
        />
        <button type="submit" disabled={busy} className={buttonStyles.secondary}>
          Send a test email
        </button>
      </Form>
    </Panel>
  );
}
