import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, displayNameForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-profile";

/** The display-name form of /admin/account (docs/conventions.md, "A page with several forms"). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const submission = await parseSubmission(request, displayNameForm);
  if (!submission.ok) return submission.response;
  const { displayName } = submission.input;
  const saved = await perform(
    context,
    () => context.get(appContext).services.users.updateDisplayName(user, displayName),
    {
      values: { displayName },
      field: "displayName",
      messages: ACCOUNT_FAILED_MESSAGES,
    },
  );
  if (!saved.ok) return saved.response;
  return redirectWithFlash(request, "/admin/account", "name-saved");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountProfile() {
  return null;
}
