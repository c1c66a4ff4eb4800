import { requireOwner } from "~/lib/auth.server";
import { formCreated, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, inviteForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/users-invite";

/**
 * The invitation form of /admin/users. Its answer is the page itself, not a redirect: the
 * link is shown this once and kept nowhere a redirect could read it back from.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { services, site } = context.get(appContext);
  const submission = await parseSubmission(request, inviteForm);
  if (!submission.ok) return submission.response;
  const invited = await perform(context, () => services.users.invite(owner, submission.input.email), {
    values: submission.values,
    field: "email",
    messages: ACCOUNT_FAILED_MESSAGES,
  });
  if (!invited.ok) return invited.response;
  const { token, invitation } = invited.value;
  const link = `${site.siteUrl}/invite?${new URLSearchParams({ token })}`;
  return formCreated({ email: "" }, { email: invitation.email, link });
}

/** A page route, not a resource route: a post without JavaScript gets the Users page back, link and all. */
export default function UsersInvite() {
  return null;
}
