import { data } from "react-router";
import { requireAdmin } from "~/lib/auth.server";
import { readFormData } from "~/lib/forms.server";
import { answerDomainErrors, type DomainFailure, type RouteErrorData } from "~/lib/route-errors.server";
import type { PreviewLinkResult } from "#domain/editor.ts";
import { formText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/page-preview-link";

/**
 * "Share a preview" makes a secret link to a draft page (shown once: only its hash is kept)
 * and "Revoke" ends every link to it.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services, site } = context.get(appContext);
  // Page ids are made as post ids are.
  if (!isPostId(params.id)) throw data<RouteErrorData>({ message: "Page not found" }, { status: 404 });
  const intent = formText(await readFormData(request), "intent");
  if (intent !== "share" && intent !== "revoke") {
    throw data<RouteErrorData>({ message: "Unknown action" }, { status: 400 });
  }
  // The panel's fetcher shows a refusal's message in place.
  const answer = (failure: DomainFailure) =>
    data<PreviewLinkResult>({ ok: false, message: failure.message }, { status: failure.status });
  return answerDomainErrors(context, { answer }, async (): Promise<PreviewLinkResult> => {
    if (intent === "share") {
      const token = await services.pages.createPreviewLink(params.id);
      return { ok: true, url: new URL(`/preview/page/${token}`, site.siteUrl).href };
    }
    await services.pages.revokePreviewLinks(params.id);
    return { ok: true, url: null };
  });
}
