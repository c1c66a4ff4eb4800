import { requireAdmin } from "~/lib/auth.server";
import { parseSubmission, perform } from "~/lib/forms.server";
import { writingViewForm } from "#domain/account.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/writing-view";

/**
 * The editor's Visual/Markdown switch keeps the writer's choice on their account, so the next
 * editor they open, in any browser, opens in it (docs/decisions/0032). The switch exists only
 * where JavaScript runs, so this answers its fetcher, not a page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const writer = requireAdmin({ request, context });
  const submission = await parseSubmission(request, writingViewForm);
  if (!submission.ok) return submission.response;
  const { users } = context.get(appContext).services;
  const kept = await perform(context, () => users.chooseWritingView(writer, submission.input.view), {
    values: submission.values,
    messages: { DATABASE_UNAVAILABLE: "Your choice of view could not be kept. It holds on this page." },
  });
  if (!kept.ok) return kept.response;
  return Response.json({ view: submission.input.view });
}
