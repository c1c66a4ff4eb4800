import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, changePasswordForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-password";

/** The change-password form of /admin/account. Passwords are never sent back to the page. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const { services, sessionCookie } = context.get(appContext);
  const submission = await parseSubmission(request, changePasswordForm);
  if (!submission.ok) return formFailure({}, { errors: submission.response.data.errors }, 400);
  const { currentPassword, newPassword } = submission.input;
  const token = (await sessionCookie.read(request)) ?? "";
  const changed = await perform(
    context,
    () => services.auth.changePassword(user, token, currentPassword, newPassword),
    {
      values: {},
      field: "currentPassword",
      messages: ACCOUNT_FAILED_MESSAGES,
    },
  );
  if (!changed.ok) return changed.response;
  return redirectWithFlash(request, "/admin/account", "password-changed");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountPassword() {
  return null;
}
