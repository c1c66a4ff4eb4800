import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { ACCOUNT_FAILED_MESSAGES, authorProfileForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/account-author";

/** The author profile form of /admin/account: the author page's address and bio (docs/decisions/0022). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAdmin({ request, context });
  const submission = await parseSubmission(request, authorProfileForm);
  if (!submission.ok) return submission.response;
  const { slug, bio } = submission.input;
  const saved = await perform(
    context,
    () => context.get(appContext).services.users.updateAuthorProfile(user, { slug, bio }),
    {
      values: { slug, bio },
      field: "slug",
      messages: ACCOUNT_FAILED_MESSAGES,
    },
  );
  if (!saved.ok) return saved.response;
  return redirectWithFlash(request, "/admin/account", "author-saved");
}

/** A page route, not a resource route: a post without JavaScript gets the account page back, messages and all. */
export default function AccountAuthor() {
  return null;
}
