import { requireAdmin } from "~/lib/auth.server";
import { isDomainError } from "#domain/errors.ts";
import { parseSubmission } from "~/lib/forms.server";
import { retryAfterHeaders } from "~/lib/route-errors.server";
import { type LinkPreviewAnswer, linkPreviewForm } from "#domain/embeds.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/link-preview";

/**
 * The card of a URL pasted alone on a line in the visual editor: its Open Graph data fetched
 * now on the server (public addresses only) and stored, so the save that follows need not fetch.
 * Admins only: a stranger cannot make the blog fetch addresses; and each writer only so often.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const writer = requireAdmin({ request, context });
  const submission = await parseSubmission(request, linkPreviewForm);
  if (!submission.ok) return submission.response;
  const { services } = context.get(appContext);
  try {
    return Response.json({
      html: (await services.embeds.card(submission.input.url, writer.id)) ?? null,
    } satisfies LinkPreviewAnswer);
  } catch (error) {
    // Past the limit the URL stays a plain link, as any URL without a card does.
    if (isDomainError(error) && error.code === "RATE_LIMITED") {
      return Response.json({ html: null } satisfies LinkPreviewAnswer, {
        status: 429,
        headers: retryAfterHeaders(error),
      });
    }
    throw error;
  }
}
