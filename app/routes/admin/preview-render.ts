import { requireAdmin } from "~/lib/auth.server";
import { readFormData } from "~/lib/forms.server";
import { type PreviewRender, readEditorDraft } from "#domain/editor.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/preview-render";

/**
 * The editor's live preview: the body through the same renderer and sanitiser a save uses,
 * so the writer sees exactly what readers will get. Nothing is stored.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin({ request, context });
  const { services } = context.get(appContext);
  const draft = readEditorDraft(await readFormData(request));
  const rendered = services.posts.renderPreview(draft.format, draft.content);
  return Response.json({
    html: rendered.html,
    wordCount: rendered.wordCount,
    readingMinutes: rendered.readingMinutes,
  } satisfies PreviewRender);
}
