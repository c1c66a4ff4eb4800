import { data } from "react-router";
import { requireAdmin, writerOf } from "~/lib/auth.server";
import { readFormData } from "~/lib/forms.server";
import { answerDomainErrors, type DomainFailure, type RouteErrorData } from "~/lib/route-errors.server";
import { type AutosaveResult, readEditorDraft } from "#domain/editor.ts";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/page-autosave";

/** Keeps what the writer is typing as an autosave revision; the page itself, and its publishing, stay as they are. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = requireAdmin({ request, context });
  const { services } = context.get(appContext);
  // Page ids are made as post ids are.
  if (!isPostId(params.id)) throw data<RouteErrorData>({ message: "Page not found" }, { status: 404 });
  const draft = readEditorDraft(await readFormData(request));
  // The editor's script reads every answer, a refusal too, as JSON.
  const answer = (failure: DomainFailure) =>
    Response.json({ message: failure.message }, { status: failure.status, headers: failure.headers });
  return answerDomainErrors(context, { answer }, async () => {
    const revision = await services.pages.autosave(params.id, draft, writerOf(admin));
    return Response.json({ savedAt: revision.createdAt } satisfies AutosaveResult);
  });
}
