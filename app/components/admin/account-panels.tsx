import { useState } from "react";
import { Form } from "react-router";
import { Panel } from "~/components/admin/panel";
import { Field, FormError, TextField } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { buttonStyles } from "~/components/ui/styles";
import { type FieldState, useValidatedForm } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import { changePasswordForm, DISPLAY_NAME_MAX, displayNameForm, twoFactorForm } from "#domain/account.ts";
import type { FormResult } from "#domain/forms.ts";

/** The account page's panels; each form posts to a child route of /admin/account with its own action. */

type Result<Field extends string, Values = unknown, Created = unknown> = FormResult<Field, Values, Created> | undefined;

export interface TwoFactorPanelProps {
  status: { enabled: boolean; recoveryCodesLeft: number };
  enrolment: { secret: string; qrCode: string } | undefined;
  result: Result<"password" | "code", unknown, { recoveryCodes: string[] }>;
  busy: boolean;
}

/** The code the authenticator app shows, as both two-factor forms ask for it. */
function AppCodeField({ field, numeric = false }: { field: FieldState; numeric?: boolean }) {
  return (
    <TextField
      {...field}
      label="Code from your app"
      inputMode={numeric ? "numeric" : undefined}
      autoComplete="one-time-code"
      maxLength={40}
    />
  );
}

/**
 * Ways to keep the codes that do not ask the writer to copy ten of them by hand: a text file
 * (a link, so it works without JavaScript) and, once the page's script runs, the clipboard.
 */
function RecoveryCodeActions({ codes }: { codes: string[] }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"copied" | "refused" | undefined>();
  const text = `Recovery codes for your blog's two-factor sign-in. Each works once.\n\n${codes.join("\n")}\n`;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <a
        href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        download="recovery-codes.txt"
        className={buttonStyles.secondary}
      >
        Download the codes
      </a>
      {hydrated ? (
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => {
            navigator.clipboard.writeText(text).then(
              () => setCopied("copied"),
              () => setCopied("refused"),
            );
          }}
        >
          Copy the codes
        </button>
      ) : null}
      <span role="status" className="text-sm">
        {copied === "copied"
          ? "Copied."
          : copied === "refused"
            ? "The browser did not allow copying; download them instead."
            : ""}
      </span>
    </div>
  );
}

export function TwoFactorPanel({ status, enrolment, result, busy }: TwoFactorPanelProps) {
  const confirmForm = useValidatedForm(twoFactorForm, { id: "enrol", result });
  const disableForm = useValidatedForm(twoFactorForm, { id: "disable", result });
  const recoveryCodes = result?.created?.recoveryCodes;
  return (
    <Panel id="two-factor-heading" title="Two-factor sign-in">
      {recoveryCodes ? (
        <div className="space-y-3">
          <p role="status">
            Two-factor sign-in is on. Keep these recovery codes somewhere safe: each one works once, instead of a code,
            if you lose your phone. They are not shown again.
          </p>
          <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
            {recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          <RecoveryCodeActions codes={recoveryCodes} />
        </div>
      ) : status.enabled ? (
        <>
          <p>
            Two-factor sign-in is on. {status.recoveryCodesLeft} recovery code
            {status.recoveryCodesLeft === 1 ? "" : "s"} left.
          </p>
          <Form method="post" action="/admin/account/two-factor" {...disableForm.props} className="space-y-4">
            <input type="hidden" name="intent" value="disable" />
            <FormError message={disableForm.formError} />
            <Field {...disableForm.field("password")} label="Password">
              {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" />}
            </Field>
            <AppCodeField field={disableForm.field("code")} />
            <button type="submit" disabled={busy} className={buttonStyles.secondary}>
              Turn off two-factor sign-in
            </button>
          </Form>
        </>
      ) : enrolment ? (
        <>
          <p>Scan this code with an authenticator app, or type the key into it, then enter the code it shows.</p>
          <img src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p className="text-sm">
            Key: <code className="font-mono break-all">{enrolment.secret}</code>
          </p>
          <Form method="post" action="/admin/account/two-factor" {...confirmForm.props} className="space-y-4">
            <input type="hidden" name="intent" value="confirm" />
            <AppCodeField field={confirmForm.field("code")} numeric />
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Turn on two-factor sign-in
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>After your password, sign-in will ask for a code from an authenticator app on your phone.</p>
          <Form method="post" action="/admin/account/two-factor">
            <button type="submit" name="intent" value="start" disabled={busy} className={buttonStyles.primary}>
              Set up two-factor sign-in
            </button>
          </Form>
        </>
      )}
    </Panel>
  );
}

export interface SessionsPanelProps {
  sessions: { id: string; device: string; lastActive: string; signedIn: string; current: boolean }[];
  busy: boolean;
}

export function SessionsPanel({ sessions, busy }: SessionsPanelProps) {
  return (
    <Panel id="sessions-heading" title="Your sessions">
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">
                {session.device}
                {session.current ? " (this browser)" : ""}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Active {session.lastActive} · signed in {session.signedIn}
              </p>
            </div>
            {session.current ? null : (
              <Form method="post" action="/admin/account/sessions">
                <input type="hidden" name="id" value={session.id} />
                <button
                  type="submit"
                  name="intent"
                  value="sign-out-session"
                  disabled={busy}
                  className={buttonStyles.secondary}
                  aria-label={`Sign out ${session.device}, active ${session.lastActive}`}
                >
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {sessions.length > 1 ? (
        <Form method="post" action="/admin/account/sessions">
          <button
            type="submit"
            name="intent"
            value="sign-out-others"
            disabled={busy}
            className={buttonStyles.secondary}
          >
            Sign out all other sessions
          </button>
        </Form>
      ) : null}
    </Panel>
  );
}

export function DisplayNamePanel({
  displayName,
  result,
  busy,
}: {
  displayName: string;
  result: Result<"displayName", { displayName: string }>;
  busy: boolean;
}) {
  const form = useValidatedForm(displayNameForm, { id: "display-name", result });
  return (
    <Panel id="display-name-heading" title="Display name">
      <Form method="post" action="/admin/account/profile" {...form.props} className="space-y-4">
        <TextField
          {...form.field("displayName")}
          label="Display name"
          hint="How you appear to the other accounts, and the author a new post starts with."
          autoComplete="name"
          maxLength={DISPLAY_NAME_MAX}
          defaultValue={result?.values.displayName ?? displayName}
        />
        <button type="submit" disabled={busy} className={buttonStyles.primary}>
          Save display name
        </button>
      </Form>
    </Panel>
  );
}

export function PasswordPanel({
  result,
  busy,
}: {
  result: Result<"currentPassword" | "newPassword" | "confirmPassword">;
  busy: boolean;
}) {
  const form = useValidatedForm(changePasswordForm, { id: "password", result });
  return (
    <Panel id="password-heading" title="Change password">
      <Form method="post" action="/admin/account/password" {...form.props} className="space-y-4">
        <Field {...form.field("currentPassword")} label="Current password">
          {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" />}
        </Field>
        <Field {...form.field("newPassword")} label="New password" hint="At least 10 characters.">
          {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" />}
        </Field>
        <Field {...form.field("confirmPassword")} label="Repeat new password">
          {(control) => <PasswordInput {...control} name="confirmPassword" autoComplete="new-password" />}
        </Field>
        <button type="submit" disabled={busy} className={buttonStyles.primary}>
          Change password
        </button>
      </Form>
    </Panel>
  );
}
