// The editor's screen for a post and a page alike: loading it (with the autosaved text to recover,
// its revisions and its preview link) and saving it. Each route names only its kind, and what only
// that kind shows beside the form; the rules (who, what id, how a refusal reads) are here once.
import { data, type RouterContextProvider } from "react-router";
import { EDITOR_LOAD_FAILED_MESSAGES } from "~/components/admin/editor/edited-item";
import { SAVE_PAGE_FAILED_MESSAGE } from "~/components/admin/page-form";
import { requireAdmin, writerOf } from "./auth.server.ts";
import { type FlashKey, redirectWithFlash, takeFlash } from "./flash.server.ts";
import { parseSubmission } from "./forms.server.ts";
import { refuseEditorForm } from "./post-form.server.ts";
import {
  answerDomainErrors,
  type DomainMessages,
  type RouteErrorData,
  withRouteErrors,
} from "./route-errors.server.ts";
import type { DomainErrorCode } from "#domain/errors.ts";
import { type FormDefinition, queryText } from "#domain/forms.ts";
import {
  type Page,
  type PageField,
  type PageFormValues,
  type PageInput,
  pageForm,
  toPageFormValues,
} from "#domain/page.ts";
import {
  isPostId,
  type Post,
  type PostField,
  type PostFormValues,
  type PostInput,
  postForm,
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

/** What differs between a post's editor and a page's. */
interface EditorKind<Field extends string, Item, Values, Input> {
  desk: "posts" | "pages";
  form: FormDefinition<Field, Values, Input>;
  load: (services: Services, id: string) => Promise<Item>;
  toValues: (item: Item) => Values;
  save: (services: Services, id: string, input: Input, writer: Writer) => Promise<unknown>;
  /** The screen's error when the item is missing or cannot be read. */
  loadFailed: string;
  saveFailed: string;
  notFound: DomainErrorCode;
  /** Where a save returns, and the notice shown there. */
  list: string;
  saved: FlashKey;
}

type EditedRecord = { id: string; slug: string; published: boolean };
type RecoverableValues = { slug: string; title: string; content: string; format: string };

export const POST_EDITOR: EditorKind<PostField, Post, PostFormValues, PostInput> = {
  desk: "posts",
  form: postForm,
  load: (services, id) => services.posts.getPostForEditing(id),
  toValues: toPostFormValues,
  save: (services, id, input, writer) => services.posts.updatePost(id, input, writer),
  loadFailed: EDITOR_LOAD_FAILED_MESSAGES.post,
  saveFailed: SAVE_FAILED_MESSAGE,
  notFound: "POST_NOT_FOUND",
  list: "/admin/posts",
  saved: "saved",
};

export const PAGE_EDITOR: EditorKind<PageField, Page, PageFormValues, PageInput> = {
  desk: "pages",
  form: pageForm,
  load: (services, id) => services.pages.getPageForEditing(id),
  toValues: toPageFormValues,
  save: (services, id, input, writer) => services.pages.updatePage(id, input, writer),
  loadFailed: EDITOR_LOAD_FAILED_MESSAGES.page,
  saveFailed: SAVE_PAGE_FAILED_MESSAGE,
  notFound: "PAGE_NOT_FOUND",
  list: "/admin/pages",
  saved: "page-saved",
};

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
        ...extras,
      },
      { headers: flash.headers },
    );
  });
}

/** Saves the form and returns to the list with its notice; a refusal keeps what was typed. */
export function editorAction<Field extends string, Item, Values extends RecoverableValues, Input>(
  kind: EditorKind<Field, Item, Values, Input>,
) {
  return async ({ request, context, params }: EditorArgs) => {
    const admin = requireAdmin({ request, context });
    const { services } = context.get(appContext);
    const id = requireItemId(kind, params.id);
    const submission = await parseSubmission(request, kind.form);
    if (!submission.ok) return submission.response;
    const refusal = {
      messages: { DATABASE_UNAVAILABLE: kind.saveFailed, [kind.notFound]: kind.loadFailed } satisfies DomainMessages,
      answer: refuseEditorForm(submission.values),
    };
    return answerDomainErrors(context, refusal, async () => {
      await kind.save(services, id, submission.input, writerOf(admin));
      return redirectWithFlash(request, kind.list, kind.saved);
    });
  };
}
