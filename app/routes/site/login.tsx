import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { appContext, userContext } from "~/context";
import { safeRedirectPath, SESSION_COOKIE_MAX_AGE_SECONDS } from "~/lib/auth.server";
import { formText } from "~/lib/forms";
import {
  EMAIL_MAX,
  INVALID_CREDENTIALS_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  loginSchema,
  PASSWORD_MAX,
} from "~/schemas/login";
import { isDomainError, RateLimitedError } from "../../../server/errors.ts";
import type { Route } from "./+types/login";

function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The form is per visitor and never cached; a refusal says when to come back. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (context.get(userContext)) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, sessionCookie, logger, clientAddress } = context.get(appContext);
  const formData = await request.formData();
  const redirectTo = safeRedirectPath(formData.get("redirectTo"));
  const email = formText(formData, "email").trim().slice(0, EMAIL_MAX);
  const parsed = loginSchema.safeParse({
    email: formText(formData, "email"),
    password: formText(formData, "password"),
  });
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? LOGIN_FAILED_MESSAGE, email }, { status: 400 });
  }

  try {
    const { token } = await services.loginThrottle.guardSignIn({ email: parsed.data.email, clientAddress }, () =>
      services.auth.signIn(parsed.data.email, parsed.data.password),
    );
    const cookie = await sessionCookie.serialize(token, { maxAge: SESSION_COOKIE_MAX_AGE_SECONDS });
    return redirect(redirectTo, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof RateLimitedError) {
      return data(
        { error: tooManyAttemptsMessage(error.retryAfterSeconds), email },
        { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } },
      );
    }
    if (isDomainError(error, "INVALID_CREDENTIALS")) {
      return data({ error: INVALID_CREDENTIALS_MESSAGE, email }, { status: 401 });
    }
    logger.error({ err: error }, "sign-in failed");
    return data({ error: LOGIN_FAILED_MESSAGE, email }, { status: 503 });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const signingIn = navigation.state === "submitting" && navigation.formAction?.startsWith("/login") === true;
  const passwordRef = useRef<HTMLInputElement>(null);
  // A refused password is cleared, as the server never sends it back.
  useEffect(() => {
    if (actionData?.error && passwordRef.current) passwordRef.current.value = "";
  }, [actionData]);
  return (
    <div className="mx-auto w-full max-w-md py-8 sm:py-12">
      <title>Admin Login</title>
      <meta name="robots" content="noindex" />
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold tracking-tight">Admin Login</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Sign in to manage your blog.</p>
        {/* noValidate: the spec's own messages, from the server, rather than the browser's tooltips */}
        <Form method="post" noValidate className="mt-6 space-y-5">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          {actionData?.error ? (
            <p
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
            >
              {actionData.error}
            </p>
          ) : null}
          <div>
            <label htmlFor="login-email" className="block text-sm font-medium">
              Email
            </label>
            <input
              id="login-email"
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              maxLength={EMAIL_MAX}
              defaultValue={actionData?.email ?? ""}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none dark:border-slate-700 dark:bg-slate-950"
            />
          </div>
          <div>
            <label htmlFor="login-password" className="block text-sm font-medium">
              Password
            </label>
            <input
              ref={passwordRef}
              id="login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              maxLength={PASSWORD_MAX}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none dark:border-slate-700 dark:bg-slate-950"
            />
          </div>
          <button
            type="submit"
            disabled={signingIn}
            className="w-full rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:opacity-70 dark:focus-visible:ring-offset-slate-900"
          >
            {signingIn ? "Signing in…" : "Sign in"}
          </button>
        </Form>
      </div>
    </div>
  );
}
