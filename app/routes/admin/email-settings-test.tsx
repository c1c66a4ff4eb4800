import { requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { retryAfterOfAction } from "~/lib/route-errors.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { testEmailForm } from "#domain/email-server.ts";
import { emailSender } from "#domain/site-settings.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/email-settings-test";

/** Too many tries: the page a browser without JavaScript gets back says when to come back. */
export const headers = retryAfterOfAction;

/**
 * "Send a test email" on Settings → Email: to the address typed, or the signed-in writer's. The
 * mail server's refusal comes back in plain words (server/newsletter/smtp-failures.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const submission = await parseSubmission(request, testEmailForm);
  if (!submission.ok) return submission.response;
  const { services, site } = context.get(appContext);
  const sent = await perform(
    context,
    () => services.email.sendTest(owner.id, submission.input.to || owner.email, emailSender(site)),
    {
      values: submission.values,
      messages: {
        DATABASE_UNAVAILABLE: "Failed to send the test email. Please try again.",
        RATE_LIMITED: "That is a lot of test emails. Please wait a few minutes before sending another.",
      },
    },
  );
  if (!sent.ok) return sent.response;
  return redirectWithFlash(request, "/admin/settings/email", "email-tested");
}

/** A page route, not a resource route: a post without JavaScript gets the email page back, messages and all. */
export default function EmailSettingsTest() {
  return null;
}
