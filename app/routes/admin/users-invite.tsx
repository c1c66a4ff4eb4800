import { requireOwner } from "~/lib/auth.server";
import { formCreated, parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, inviteForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/users-invite";

/**
 * The invitation form of /admin/users. Its answer is the page itself, not a redirect: the
 * link is shown this once and kept nowhere a redirect could read it back from. While email is
 * on, the link also goes to the invited address by email.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const { services, site, logger } = context.get(appContext);
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
  // Queued for the outbox while email is on; the link shown stays the way to pass it on by hand,
  // also when the email could not be queued: the invitation exists, and its link is shown only now.
  const emailed = await services.accountEmails
    .sendInvitation({ to: invitation.email, link, invitedBy: owner.username })
    .catch((error: unknown) => {
      logger.error({ err: error }, "queueing an invitation email failed");
      return false;
    });
  return formCreated({ email: "" }, { email: invitation.email, link, emailed });
}

/** A page route, not a resource route: a post without JavaScript gets the Users page back, link and all. */
export default function UsersInvite() {
  return null;
}
