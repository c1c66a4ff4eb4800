import { requireOwner } from "~/lib/auth.server";
import { type FlashKey, redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, manageAccountsForm, UNKNOWN_ACTION_MESSAGE } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/users-manage";

const DONE: Record<"revoke" | "transfer" | "remove", FlashKey> = {
  revoke: "invitation-revoked",
  transfer: "ownership-transferred",
  remove: "account-removed",
};

/** The owner's buttons on /admin/users: revoke an invitation, make an account the owner, remove one. */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { users } = context.get(appContext).services;
  const submission = await parseSubmission(request, manageAccountsForm);
  if (!submission.ok) return formFailure({}, { formError: UNKNOWN_ACTION_MESSAGE }, 400);
  const { intent, id } = submission.input;
  const done = await perform(
    context,
    async () => {
      if (intent === "revoke") await users.revokeInvitation(owner, id);
      else if (intent === "transfer") await users.transferOwnership(owner, id);
      else await users.removeAccount(owner, id);
    },
    { values: {}, messages: ACCOUNT_FAILED_MESSAGES },
  );
  if (!done.ok) return done.response;
  // Whoever gave ownership away may no longer open Users: the dashboard says it was done.
  return redirectWithFlash(request, intent === "transfer" ? "/admin" : "/admin/users", DONE[intent]);
}

/** A page route, not a resource route: a refusal without JavaScript gets the Users page back with its message. */
export default function UsersManage() {
  return null;
}
