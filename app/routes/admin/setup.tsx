import { data, Form, Link, redirect, useNavigation } from "react-router";
import { appContext } from "~/context";
import { SESSION_COOKIE_MAX_AGE_SECONDS } from "~/lib/auth.server";
import { collectFieldErrors, type FieldErrors, formText } from "~/lib/forms";
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, setupSchema } from "~/schemas/login";
import type { SetupLinkState } from "../../../server/services/setup.ts";
import type { Route } from "./+types/setup";

type SetupField = "email" | "password" | "confirmPassword" | "form";

const CLOSED_STATUS: Record<Exclude<SetupLinkState, "open">, number> = { closed: 410, invalid: 404 };
const NO_STORE = { "Cache-Control": "private, no-store" };

export function headers() {
  return NO_STORE;
}

/** The first admin, from the one-time link that `npm start` prints while the blog has none. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context.get(appContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await services.setup.checkSetupLink(token);
  return data(
    { state, token: state === "open" ? token : "" },
    { status: state === "open" ? 200 : CLOSED_STATUS[state], headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, sessionCookie, logger } = context.get(appContext);
  const formData = await request.formData();
  const token = formText(formData, "token");
  const email = formText(formData, "email").trim().slice(0, EMAIL_MAX);
  const parsed = setupSchema.safeParse({
    email: formText(formData, "email"),
    password: formText(formData, "password"),
    confirmPassword: formText(formData, "confirmPassword"),
  });
  if (!parsed.success) {
    const errors = collectFieldErrors<SetupField>(parsed.error);
    return data({ state: "open" as SetupLinkState, token, email, errors }, { status: 400, headers: NO_STORE });
  }
  try {
    const result = await services.setup.createFirstAdmin(token, parsed.data.email, parsed.data.password);
    if (!result.created) {
      return data(
        { state: result.state as SetupLinkState, token: "", email, errors: {} as FieldErrors<SetupField> },
        { status: CLOSED_STATUS[result.state], headers: NO_STORE },
      );
    }
    logger.info({ email: result.email }, "first admin created through the setup link");
    const { token: sessionToken } = await services.auth.signIn(parsed.data.email, parsed.data.password);
    const cookie = await sessionCookie.serialize(sessionToken, { maxAge: SESSION_COOKIE_MAX_AGE_SECONDS });
    return redirect("/admin", { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    logger.error({ err: error }, "first admin setup failed");
    const errors: FieldErrors<SetupField> = { form: "The account could not be created. Please try again." };
    return data({ state: "open" as SetupLinkState, token, email, errors }, { status: 503, headers: NO_STORE });
  }
}

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none dark:border-slate-700 dark:bg-slate-950";

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const state = actionData?.state ?? loaderData.state;
  const token = actionData?.token ?? loaderData.token;
  const errors: FieldErrors<SetupField> = actionData?.errors ?? {};
  const creating = navigation.state === "submitting";

  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Create the first admin</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {state === "closed" ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Setup is complete</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              An admin account already exists, so this setup link no longer works.
            </p>
            <Link to="/login" className="mt-6 inline-block font-medium text-indigo-700 underline dark:text-indigo-300">
              Sign in instead
            </Link>
          </>
        ) : state === "invalid" ? (
          <>
            <h1 className="text-2xl font-bold tracking-tight">This setup link is not valid</h1>
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              It may have expired or been mistyped. Restart the server to print a new link, or create the admin with{" "}
              <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">npm run blog -- create-admin</code>.
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold tracking-tight">Create the first admin</h1>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              This link works once: after this account exists, sign in at /login.
            </p>
            <Form method="post" noValidate className="mt-6 space-y-5">
              <input type="hidden" name="token" value={token} />
              {errors.form ? (
                <p
                  role="alert"
                  className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
                >
                  {errors.form}
                </p>
              ) : null}
              <SetupInput
                name="email"
                label="Email"
                type="email"
                autoComplete="username"
                maxLength={EMAIL_MAX}
                defaultValue={actionData?.email}
                error={errors.email}
              />
              <SetupInput
                name="password"
                label={`Password (at least ${PASSWORD_MIN} characters)`}
                type="password"
                autoComplete="new-password"
                maxLength={PASSWORD_MAX}
                error={errors.password}
              />
              <SetupInput
                name="confirmPassword"
                label="Repeat password"
                type="password"
                autoComplete="new-password"
                maxLength={PASSWORD_MAX}
                error={errors.confirmPassword}
              />
              <button
                type="submit"
                disabled={creating}
                className="w-full rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 disabled:opacity-70"
              >
                {creating ? "Creating…" : "Create admin account"}
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}

interface SetupInputProps {
  name: Exclude<SetupField, "form">;
  label: string;
  type: "email" | "password";
  autoComplete: string;
  maxLength: number;
  defaultValue?: string;
  error: string | undefined;
}

function SetupInput({ name, label, type, autoComplete, maxLength, defaultValue, error }: SetupInputProps) {
  const id = `setup-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
