import { data } from "react-router";
import { requireAdmin } from "~/lib/auth.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { readFormData } from "~/lib/forms.server";
import { answerDomainErrors, type RouteErrorData } from "~/lib/route-errors.server";
import { formText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/post-email-send";

/**
 * "Cancel sending" on the editor: what is not yet sent will not be (a message already with
 * SMTP still goes out). A plain form posting here, then back to the editor, so it works
 * without JavaScript; the request checks refuse a form from another site.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services } = context.get(appContext);
  if (!isPostId(params.id)) throw data<RouteErrorData>({ message: "Post not found" }, { status: 404 });
  if (formText(await readFormData(request), "intent") !== "cancel") {
    throw data<RouteErrorData>({ message: "Unknown action" }, { status: 400 });
  }
  return answerDomainErrors(
    context,
    { messages: { DATABASE_UNAVAILABLE: "Failed to cancel. Please try again." } },
    async () => {
      const cancelled = await services.postNewsletter.cancel(params.id);
      return redirectWithFlash(
        request,
        `/admin/posts/edit/${params.id}`,
        cancelled ? "sending-cancelled" : "sending-over",
      );
    },
  );
}
