import Bowser from "bowser";
import { data, Form, useNavigation } from "react-router";
import { Notice, Panel } from "~/components/admin/panel";
import { Field, FormError } from "~/components/ui/field";
import { buttonStyles, inputStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { useValidatedForm } from "~/lib/forms";
import { formFailure, parseSubmission, readFormData } from "~/lib/forms.server";
import { describeDomainError, throwAsRouteError } from "~/lib/route-errors.server";
import {
  changePasswordForm,
  DISPLAY_NAME_MAX,
  disableTwoFactorForm,
  displayNameForm,
  twoFactorCodeForm,
} from "#domain/account.ts";
import { formText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import { PasswordInput } from "~/components/ui/password-input";
import type { Route } from "./+types/account";

const FAILED_MESSAGE = "That did not work. Please try again.";

/** "Firefox on Linux": enough to recognise a device, nothing more. */
function describeDevice(userAgent: string): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ?? "Unknown browser";
  return parsed.os.name ? `${browser} on ${parsed.os.name}` : browser;
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
];

/** "3 hours ago": sessions record activity at most hourly, so more precision would mislead. */
function approximately(iso: string, now: number): string {
  const elapsed = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return relative.format(Math.round(elapsed / ms), unit);
  }
  return "just now";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAdmin({ request, context });
  const { services, sessionCookie } = context.get(appContext);
  try {
    const token = await sessionCookie.read(request);
    const [sessions, twoFactor, enrolment] = await Promise.all([
      services.auth.listSessions(user.id, token),
      services.twoFactor.status(user.id),
      services.twoFactor.pendingEnrolment(user.id),
    ]);
    const now = Date.now();
    return {
      user: { displayName: user.username, email: user.email },
      sessions: sessions.map((session) => ({
        id: session.idHash,
        device: describeDevice(session.userAgent),
        lastActive: approximately(session.lastSeenAt, now),
        signedIn: approximately(session.createdAt, now),
        current: session.current,
      })),
      twoFactor,
      enrolment: enrolment ? { secret: enrolment.secret, qrCode: enrolment.qrCodeDataUrl } : undefined,
    };
  } catch (error) {
    throwAsRouteError(error, context, { DATABASE_UNAVAILABLE: "Failed to load your account. Please try again." });
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { services, sessionCookie } = context.get(appContext);
  const token = (await sessionCookie.read(request)) ?? "";
  const intent = formText(await readFormData(request.clone()), "intent");
  const fail = (values: Record<string, string>, error: unknown, field?: string) => {
    const failure = describeDomainError(error, context, { DATABASE_UNAVAILABLE: FAILED_MESSAGE });
    const errors = field ? { [field]: failure.message } : {};
    return formFailure(
      { ...values, intent },
      { errors, formError: field ? undefined : failure.message },
      failure.status,
      failure.headers,
    );
  };

  switch (intent) {
    case "change-display-name": {
      const submission = await parseSubmission(request, displayNameForm);
      if (!submission.ok) {
        const { values, errors } = submission.response.data;
        return formFailure({ ...values, intent }, { errors }, 400);
      }
      try {
        await services.users.updateDisplayName(user, submission.input.displayName);
        return {
          values: { intent, displayName: submission.input.displayName },
          errors: {},
          notice: "Display name saved.",
        };
      } catch (error) {
        return fail({ displayName: submission.input.displayName }, error, "displayName");
      }
    }
    case "change-password": {
      const submission = await parseSubmission(request, changePasswordForm);
      if (!submission.ok) return data({ ...submission.response.data, values: { intent } }, { status: 400 });
      try {
        const { currentPassword, newPassword } = submission.input;
        await services.auth.changePassword(user, token, currentPassword, newPassword);
        return { values: { intent }, errors: {}, notice: "Password changed. Your other sessions were signed out." };
      } catch (error) {
        return fail({}, error, "currentPassword");
      }
    }
    case "start-2fa":
      await services.twoFactor.startEnrolment(user.id);
      return { values: { intent }, errors: {} };
    case "confirm-2fa": {
      const submission = await parseSubmission(request, twoFactorCodeForm);
      if (!submission.ok) return data({ ...submission.response.data, values: { intent } }, { status: 400 });
      try {
        const recoveryCodes = await services.twoFactor.confirmEnrolment(user.id, submission.input.code);
        return { values: { intent }, errors: {}, recoveryCodes };
      } catch (error) {
        return fail({}, error, "code");
      }
    }
    case "disable-2fa": {
      const submission = await parseSubmission(request, disableTwoFactorForm);
      if (!submission.ok) return data({ ...submission.response.data, values: { intent } }, { status: 400 });
      try {
        await services.auth.confirmPassword(user.id, submission.input.password);
        await services.twoFactor.verifyCode(user.id, submission.input.code);
        await services.twoFactor.disable(user.id);
        return { values: { intent }, errors: {}, notice: "Two-factor sign-in is off." };
      } catch (error) {
        return fail({}, error);
      }
    }
    case "sign-out-session":
    case "sign-out-others": {
      const formData = await readFormData(request);
      try {
        if (intent === "sign-out-others") await services.auth.signOutOtherSessions(user.id, token);
        else await services.auth.signOutSession(user.id, formText(formData, "id"));
        return { values: { intent }, errors: {}, notice: "Signed out." };
      } catch (error) {
        return fail({}, error);
      }
    }
    default:
      return formFailure({ intent }, { formError: "Unknown action" }, 400);
  }
}

type ActionData = Route.ComponentProps["actionData"];

function resultFor(actionData: ActionData, intent: string) {
  return actionData && actionData.values && "intent" in actionData.values && actionData.values.intent === intent
    ? (actionData as { values: Record<string, string>; errors: Record<string, string>; formError?: string })
    : undefined;
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user, sessions, twoFactor, enrolment } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const displayNameResult = resultFor(actionData, "change-display-name");
  const nameForm = useValidatedForm(displayNameForm, { id: "display-name", result: displayNameResult });
  const passwordForm = useValidatedForm(changePasswordForm, {
    id: "password",
    result: resultFor(actionData, "change-password"),
  });
  const confirmForm = useValidatedForm(twoFactorCodeForm, {
    id: "enrol",
    result: resultFor(actionData, "confirm-2fa"),
  });
  const disableForm = useValidatedForm(disableTwoFactorForm, {
    id: "disable",
    result: resultFor(actionData, "disable-2fa"),
  });
  const notice = actionData && "notice" in actionData ? actionData.notice : undefined;
  const recoveryCodes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : undefined;
  const otherError =
    actionData && "formError" in actionData && !resultFor(actionData, "disable-2fa") ? actionData.formError : undefined;

  return (
    <>
      <title>Your account · Admin</title>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Your account</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        {user.displayName} · {user.email}
      </p>
      <div className="mt-6 max-w-3xl space-y-6">
        <Notice message={notice} />
        <FormError message={otherError} />

        <Panel id="two-factor-heading" title="Two-factor sign-in">
          {recoveryCodes ? (
            <div className="space-y-3">
              <p role="status">
                Two-factor sign-in is on. Keep these recovery codes somewhere safe: each one works once, instead of a
                code, if you lose your phone. They are not shown again.
              </p>
              <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
                {recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </div>
          ) : twoFactor.enabled ? (
            <>
              <p>
                Two-factor sign-in is on. {twoFactor.recoveryCodesLeft} recovery code
                {twoFactor.recoveryCodesLeft === 1 ? "" : "s"} left.
              </p>
              <Form method="post" {...disableForm.props} className="space-y-4">
                <input type="hidden" name="intent" value="disable-2fa" />
                <FormError message={disableForm.formError} />
                <Field {...disableForm.field("password")} label="Password">
                  {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" />}
                </Field>
                <Field {...disableForm.field("code")} label="Code from your app">
                  {(control) => (
                    <input
                      {...control}
                      name="code"
                      autoComplete="one-time-code"
                      maxLength={40}
                      className={inputStyles}
                    />
                  )}
                </Field>
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
              <Form method="post" {...confirmForm.props} className="space-y-4">
                <input type="hidden" name="intent" value="confirm-2fa" />
                <Field {...confirmForm.field("code")} label="Code from your app">
                  {(control) => (
                    <input
                      {...control}
                      name="code"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={40}
                      className={inputStyles}
                    />
                  )}
                </Field>
                <button type="submit" disabled={busy} className={buttonStyles.primary}>
                  Turn on two-factor sign-in
                </button>
              </Form>
            </>
          ) : (
            <>
              <p>After your password, sign-in will ask for a code from an authenticator app on your phone.</p>
              <Form method="post">
                <button type="submit" name="intent" value="start-2fa" disabled={busy} className={buttonStyles.primary}>
                  Set up two-factor sign-in
                </button>
              </Form>
            </>
          )}
        </Panel>

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
                  <Form method="post">
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
            <Form method="post">
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

        <Panel id="display-name-heading" title="Display name">
          <Form method="post" {...nameForm.props} className="space-y-4">
            <input type="hidden" name="intent" value="change-display-name" />
            <Field
              {...nameForm.field("displayName")}
              label="Display name"
              hint="How you appear to the other accounts, and the author a new post starts with."
            >
              {(control) => (
                <input
                  {...control}
                  name="displayName"
                  autoComplete="name"
                  maxLength={DISPLAY_NAME_MAX}
                  defaultValue={displayNameResult?.values.displayName ?? user.displayName}
                  className={inputStyles}
                />
              )}
            </Field>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Save display name
            </button>
          </Form>
        </Panel>

        <Panel id="password-heading" title="Change password">
          <Form method="post" {...passwordForm.props} className="space-y-4">
            <input type="hidden" name="intent" value="change-password" />
            <Field {...passwordForm.field("currentPassword")} label="Current password">
              {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" />}
            </Field>
            <Field {...passwordForm.field("newPassword")} label="New password" hint="At least 10 characters.">
              {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" />}
            </Field>
            <Field {...passwordForm.field("confirmPassword")} label="Repeat new password">
              {(control) => <PasswordInput {...control} name="confirmPassword" autoComplete="new-password" />}
            </Field>
            <button type="submit" disabled={busy} className={buttonStyles.primary}>
              Change password
            </button>
          </Form>
        </Panel>
      </div>
    </>
  );
}
