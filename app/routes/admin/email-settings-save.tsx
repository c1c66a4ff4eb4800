import { actorOf, requireOwner } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { formFailure, parseSubmission, perform } from "~/lib/forms.server";
import { emailServerForm } from "#domain/email-server.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/email-settings-save";

/** The mail server form of Settings → Email (docs/conventions.md, "A page with several forms"). */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = requireOwner({ request, context });
  const submission = await parseSubmission(request, emailServerForm);
  if (!submission.ok) {
    // The password typed is never sent back to the page.
    const { password: _password, ...typed } = submission.response.data.values;
    return formFailure(typed, { errors: submission.response.data.errors }, 400);
  }
  const { password: _password, ...typed } = submission.values;
  const { services } = context.get(appContext);
  const saved = await perform(context, () => services.email.save(actorOf(owner), submission.input), {
    values: typed,
    messages: { DATABASE_UNAVAILABLE: "Failed to save the email settings. Please try again." },
  });
  if (!saved.ok) return saved.response;
  const { on } = await services.email.describe();
  return redirectWithFlash(request, "/admin/settings/email", on ? "email-saved" : "email-saved-untested");
}

/** A page route, not a resource route: a post without JavaScript gets the email page back, messages and all. */
export default function EmailSettingsSave() {
  return null;
}
