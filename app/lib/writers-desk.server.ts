// The editor's calls beside the save, for a post and a page alike: autosave, preview links and
// revisions.
// Each route names only its kind; the rules (who, what id, how a refusal reads) are here once.
import { data, redirect, type RouterContextProvider } from "react-router";
import { editorPaths } from "~/components/admin/editor/edited-item";
import { compareRevision } from "~/components/admin/editor/revision-diff";
import { REVISION_LOAD_FAILED_MESSAGE } from "~/components/admin/editor/revision-view";
import { requireAdmin, writerOf } from "./auth.server.ts";
import { redirectWithFlash } from "./flash.server.ts";
import { readFormData } from "./forms.server.ts";
import { answerDomainErrors, type DomainFailure, type RouteErrorData, withRouteErrors } from "./route-errors.server.ts";
import { type AutosaveResult, type PreviewLinkResult, readEditorDraft } from "#domain/editor.ts";
import { formText } from "#domain/forms.ts";
import { isPostId } from "#domain/post.ts";
import { appContext } from "#server/request-context.ts";

interface DeskArgs<Params = { id: string }> {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: Params;
}

/** What differs between a post's desk and a page's. */
const KINDS = {
  post: {
    service: "posts",
    notFound: "Post not found",
    previewPath: (token: string) => `/preview/${token}`,
  },
  page: {
    service: "pages",
    notFound: "Page not found",
    previewPath: (token: string) => `/preview/page/${token}`,
  },
} as const;
type DeskKind = keyof typeof KINDS;

/** Page ids are made as post ids are; anything else names nothing and is answered without a query. */
function requireItemId(kind: DeskKind, id: string): string {
  if (!isPostId(id)) throw data<RouteErrorData>({ message: KINDS[kind].notFound }, { status: 404 });
  return id;
}

/** Keeps what the writer is typing as an autosave revision; the item itself, and its publishing, stay as they are. */
export async function autosaveAction(kind: DeskKind, { request, context, params }: DeskArgs) {
  const admin = requireAdmin({ request, context });
  const desk = context.get(appContext).services[KINDS[kind].service];
  const id = requireItemId(kind, params.id);
  const draft = readEditorDraft(await readFormData(request));
  // The editor's script reads every answer, a refusal too, as JSON.
  const answer = (failure: DomainFailure) =>
    Response.json({ message: failure.message }, { status: failure.status, headers: failure.headers });
  return answerDomainErrors(context, { answer }, async () => {
    const revision = await desk.autosave(id, draft, writerOf(admin));
    return Response.json({ savedAt: revision.createdAt } satisfies AutosaveResult);
  });
}

/**
 * "Share a preview" makes a secret link to the draft (shown once: only its hash is kept) and
 * "Revoke" ends every link to it.
 */
export async function previewLinkAction(kind: DeskKind, { request, context, params }: DeskArgs) {
  requireAdmin({ request, context });
  const { services, site } = context.get(appContext);
  const desk = services[KINDS[kind].service];
  const id = requireItemId(kind, params.id);
  const intent = formText(await readFormData(request), "intent");
  if (intent === "view") return viewDraft(kind, desk, id, context);
  if (intent !== "share" && intent !== "revoke") {
    throw data<RouteErrorData>({ message: "Unknown action" }, { status: 400 });
  }
  // The panel's fetcher shows a refusal's message in place.
  const answer = (failure: DomainFailure) =>
    data<PreviewLinkResult>({ ok: false, message: failure.message }, { status: failure.status });
  return answerDomainErrors(context, { answer }, async (): Promise<PreviewLinkResult> => {
    if (intent === "share") {
      const token = await desk.createPreviewLink(id);
      return { ok: true, url: new URL(KINDS[kind].previewPath(token), site.siteUrl).href };
    }
    await desk.revokePreviewLinks(id);
    return { ok: true, url: null };
  });
}

/**
 * The editor's "View post" on a draft (a form opening a new tab): a preview link made for the
 * writer, and the browser sent on to it, where readers' addresses would answer "not available".
 */
function viewDraft(
  kind: DeskKind,
  desk: { createPreviewLink: (id: string) => Promise<string> },
  id: string,
  context: Readonly<RouterContextProvider>,
) {
  return answerDomainErrors(context, {}, async () =>
    redirect(KINDS[kind].previewPath(await desk.createPreviewLink(id))),
  );
}

/** A preview is for the holder of its link only: never cached, indexed or passed on as a referrer. */
export const PRIVATE_PREVIEW_HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
};

const PREVIEW_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;
const PREVIEW_ENDED_MESSAGE = "This preview link has ended";

/** A token shaped like ours, or the preview's 404 before any query. */
export function requirePreviewToken(token: string): string {
  if (!PREVIEW_TOKEN_PATTERN.test(token)) {
    throw data({ message: PREVIEW_ENDED_MESSAGE }, { status: 404, headers: PRIVATE_PREVIEW_HEADERS });
  }
  return token;
}

type RevisionParams = { id: string; revisionId: string };

/** Item and revision ids are made alike; anything else names nothing and is answered without a query. */
function requireRevisionIds(params: RevisionParams): RevisionParams {
  if (!isPostId(params.id) || !isPostId(params.revisionId)) {
    throw data<RouteErrorData>({ message: REVISION_LOAD_FAILED_MESSAGE }, { status: 404 });
  }
  return { id: params.id, revisionId: params.revisionId };
}

/** A revision beside the item's saved text, compared word by word. */
export function revisionLoader(kind: DeskKind) {
  return withRouteErrors(
    { DATABASE_UNAVAILABLE: REVISION_LOAD_FAILED_MESSAGE },
    async ({ request, context, params }: DeskArgs<RevisionParams>) => {
      requireAdmin({ request, context });
      const { services } = context.get(appContext);
      const { id, revisionId } = requireRevisionIds(params);
      const [saved, revision] = await Promise.all([
        kind === "post" ? services.posts.getPostForEditing(id) : services.pages.getPageForEditing(id),
        services[KINDS[kind].service].getRevision(id, revisionId),
      ]);
      return { editorHref: editorPaths({ kind, id: saved.id }).edit, comparison: compareRevision(revision, saved) };
    },
  );
}

/** Puts the revision back (itself a new revision) and returns to the editor. */
export function restoreRevisionAction(kind: DeskKind) {
  return withRouteErrors(
    { DATABASE_UNAVAILABLE: "Failed to restore. Please try again." },
    async ({ request, context, params }: DeskArgs<RevisionParams>) => {
      const admin = requireAdmin({ request, context });
      const desk = context.get(appContext).services[KINDS[kind].service];
      const { id, revisionId } = requireRevisionIds(params);
      await desk.restoreRevision(id, revisionId, writerOf(admin));
      return redirectWithFlash(request, editorPaths({ kind, id }).edit, "restored");
    },
  );
}
