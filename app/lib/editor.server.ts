// The editor's screen for a post and a page alike: loading it (with the autosaved text to recover,
// its revisions and its preview link) and saving it. Each route names only its kind, and what only
// that kind shows beside the form; the rules (who, what id, how a refusal reads) are here once.
import { data, type RouterContextProvider } from "react-router";
import { EDITOR_LOAD_FAILED_MESSAGES, editorPaths } from "~/components/admin/editor/edited-item";
import { SAVE_PAGE_FAILED_MESSAGE } from "~/components/admin/page-form";
import { requireAdmin, writerOf } from "./auth.server.ts";
import { type FlashKey, redirectWithFlash, takeFlash } from "./flash.server.ts";
import { judgeSubmission, readFormData } from "./forms.server.ts";
import { refuseEditorForm } from "./post-form.server.ts";
import {
  answerDomainErrors,
  type DomainMessages,
  type RouteErrorData,
  withRouteErrors,
} from "./route-errors.server.ts";
import type { DomainErrorCode } from "#domain/errors.ts";
import { readSaveIntent, type SaveIntent } from "#domain/editor.ts";
import { type FormDefinition, queryText } from "#domain/forms.ts";
import {
  type Page,
  type PageField,
  type PageFormValues,
  type PageInput,
  pageDraftForm,
  pageForm,
  toPageFormValues,
} from "#domain/page.ts";
import {
  isPostId,
  type Post,
  type PostField,
  type PostFormValues,
  postDraftForm,
  postForm,
  type PostSaveInput,
  SAVE_FAILED_MESSAGE,
  toPostFormValues,
} from "#domain/post.ts";
import { type AppContext, appContext } from "#server/request-context.ts";
import type { Services } from "#server/composition.ts";
import type { Writer } from "#server/posts/index.ts";

interface EditorArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: { id: string };
}

type NewItemArgs = Omit<EditorArgs, "params">;

/** What differs between a post's editor and a page's. */
interface EditorKind<Field extends string, Item, Values, Input> {
  kind: "post" | "page";
  desk: "posts" | "pages";
  form: FormDefinition<Field, Values, Input>;
  /** "Save draft": the same fields under the draft rules. */
  draftForm: FormDefinition<Field, Values, Input>;
  load: (services: Services, id: string) => Promise<Item>;
  toValues: (item: Item) => Values;
  create: (services: Services, input: Input, writer: Writer) => Promise<{ id: string }>;
  save: (services: Services, id: string, input: Input, writer: Writer) => Promise<unknown>;
  /** The screen's error when the item is missing or cannot be read. */
  loadFailed: string;
  saveFailed: string;
  notFound: DomainErrorCode;
  /** Where a save returns, and the notice shown there; the same for a creation. */
  list: string;
  saved: FlashKey;
  created: FlashKey;
}

type EditedRecord = { id: string; slug: string; published: boolean };
type RecoverableValues = { slug: string; title: string; content: string; format: string };

export const POST_EDITOR: EditorKind<PostField, Post, PostFormValues, PostSaveInput> = {
  kind: "post",
  desk: "posts",
  form: postForm,
  draftForm: postDraftForm,
  load: (services, id) => services.posts.getPostForEditing(id),
  toValues: toPostFormValues,
  create: (services, input, writer) => services.posts.createPost(input, writer),
  save: (services, id, input, writer) => services.posts.updatePost(id, input, writer),
  loadFailed: EDITOR_LOAD_FAILED_MESSAGES.post,
  saveFailed: SAVE_FAILED_MESSAGE,
  notFound: "POST_NOT_FOUND",
  list: "/admin/posts",
  saved: "saved",
  created: "created",
};

export const PAGE_EDITOR: EditorKind<PageField, Page, PageFormValues, PageInput> = {
  kind: "page",
  desk: "pages",
  form: pageForm,
  draftForm: pageDraftForm,
  load: (services, id) => services.pages.getPageForEditing(id),
  toValues: toPageFormValues,
  create: (services, input, writer) => services.pages.createPage(input, writer),
  save: (services, id, input, writer) => services.pages.updatePage(id, input, writer),
  loadFailed: EDITOR_LOAD_FAILED_MESSAGES.page,
  saveFailed: SAVE_PAGE_FAILED_MESSAGE,
  notFound: "PAGE_NOT_FOUND",
  list: "/admin/pages",
  saved: "page-saved",
  created: "page-created",
};

/** Where a save with `intent` goes: the list (the spec's flow), or back into the item's editor with its own notice. */
function afterSave(
  kind: { kind: "post" | "page"; list: string },
  id: string,
  intent: SaveIntent,
  listNotice: FlashKey,
): { to: string; notice: FlashKey } {
  if (intent === "save") return { to: kind.list, notice: listNotice };
  return { to: editorPaths({ kind: kind.kind, id }).edit, notice: intent === "draft" ? "draft-saved" : "saved-here" };
}

/** The notices after which the editor offers "View post" (or "View page") beside them. */
const STAYED_NOTICES: ReadonlySet<FlashKey | undefined> = new Set(["saved-here", "draft-saved"]);

/** Reads the form under the rules its button asks for: the draft's for "Save draft", the full ones otherwise. */
async function readEditorSubmission<Field extends string, Values, Input>(
  request: Request,
  kind: Pick<EditorKind<Field, unknown, Values, Input>, "form" | "draftForm">,
) {
  const formData = await readFormData(request);
  const intent = readSaveIntent(formData);
  return { intent, submission: judgeSubmission(formData, intent === "draft" ? kind.draftForm : kind.form) };
}

/** Page ids are made as post ids are; anything else names nothing and is answered without a query. */
function requireItemId(kind: { loadFailed: string }, id: string): string {
  if (!isPostId(id)) throw data<RouteErrorData>({ message: kind.loadFailed }, { status: 404 });
  return id;
}

/**
 * The editor's data: the item's form values (or, with ?recover=1, its autosaved text), its
 * revisions, its preview link and the pending notice, with what `extra` reads for this kind alone.
 */
export function editorLoader<
  Field extends string,
  Item extends EditedRecord,
  Values extends RecoverableValues,
  Input,
  Extra,
>(kind: EditorKind<Field, Item, Values, Input>, extra: (item: Item, app: AppContext) => Promise<Extra>) {
  const messages: DomainMessages = { [kind.notFound]: kind.loadFailed, DATABASE_UNAVAILABLE: kind.loadFailed };
  return withRouteErrors(messages, async ({ request, context, params }: EditorArgs) => {
    requireAdmin({ request, context });
    const app = context.get(appContext);
    const desk = app.services[kind.desk];
    const item = await kind.load(app.services, requireItemId(kind, params.id));
    const [unsaved, revisions, previewLinkSince, extras] = await Promise.all([
      desk.findUnsavedDraft(item.id),
      desk.listRevisions(item.id),
      desk.findPreviewLinkCreatedAt(item.id),
      extra(item, app),
    ]);
    // ?recover=1 (a link, so it works without JavaScript) opens the editor on the autosaved text.
    const recovering = unsaved !== undefined && queryText(new URL(request.url), "recover") === "1";
    const values = kind.toValues(item);
    const flash = await takeFlash(request);
    return data(
      {
        id: item.id,
        slug: item.slug,
        published: item.published,
        values: recovering
          ? { ...values, title: unsaved.title, content: unsaved.content, format: unsaved.format }
          : values,
        recovering,
        unsavedSince: unsaved?.createdAt,
        revisions,
        previewLinkSince,
        flash: flash.message,
        /** The save that led here kept the writer in the editor: the notice offers the way to the item. */
        stayed: STAYED_NOTICES.has(flash.key),
        ...extras,
      },
      { headers: flash.headers },
    );
  });
}

/**
 * Saves the form and returns to the list with its notice, or stays in the editor ("keep
 * editing", "Save draft"); a refusal keeps what was typed.
 */
export function editorAction<Field extends string, Item, Values extends RecoverableValues, Input>(
  kind: EditorKind<Field, Item, Values, Input>,
) {
  return async ({ request, context, params }: EditorArgs) => {
    const admin = requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const id = requireItemId(kind, params.id);
    const { intent, submission } = await readEditorSubmission(request, kind);
    if (!submission.ok) return submission.response;
    const refusal = {
      messages: { DATABASE_UNAVAILABLE: kind.saveFailed, [kind.notFound]: kind.loadFailed } satisfies DomainMessages,
      answer: refuseEditorForm(submission.values),
    };
    return answerDomainErrors(context, refusal, async () => {
      await kind.save(services, id, submission.input, writerOf(admin));
      const next = afterSave(kind, id, intent, kind.saved);
      return redirectWithFlash(request, next.to, next.notice);
    });
  };
}

/**
 * Creates the item from the new-item form and goes to the list with its notice (the spec's
 * flow), or to the new item's editor ("keep editing", "Save draft"); a refusal keeps what was typed.
 */
export function newItemAction<Field extends string, Item, Values extends { slug: string }, Input>(
  kind: EditorKind<Field, Item, Values, Input>,
) {
  return async ({ request, context }: NewItemArgs) => {
    const admin = requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const { intent, submission } = await readEditorSubmission(request, kind);
    if (!submission.ok) return submission.response;
    const refusal = {
      messages: { DATABASE_UNAVAILABLE: kind.saveFailed } satisfies DomainMessages,
      answer: refuseEditorForm(submission.values),
    };
    return answerDomainErrors(context, refusal, async () => {
      const created = await kind.create(services, submission.input, writerOf(admin));
      const next = afterSave(kind, created.id, intent, kind.created);
      return redirectWithFlash(request, next.to, next.notice);
    });
  };
}
