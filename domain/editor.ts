import { cleanText } from "./forms.ts";
import { POST_FORMATS, POST_LIMITS, type PostFormat } from "./post.ts";

/** What the editor sends to preview or autosave a body: form-encoded, like every mutation. */
export interface EditorDraft {
  title: string;
  content: string;
  format: PostFormat;
}

function readFormat(value: FormDataEntryValue | null): PostFormat {
  return POST_FORMATS.find((format) => format === value) ?? "markdown";
}

/** The draft in a preview or autosave request, cut to the post limits so no request stores more than a save may. */
export function readEditorDraft(formData: FormData): EditorDraft {
  const text = (name: string, max: number) => {
    const value = formData.get(name);
    return typeof value === "string" ? cleanText(value).slice(0, max) : "";
  };
  return {
    title: text("title", POST_LIMITS.title),
    content: text("content", POST_LIMITS.content),
    format: readFormat(formData.get("format")),
  };
}

/** What the preview endpoint answers. */
export interface PreviewRender {
  html: string;
  wordCount: number;
  readingMinutes: number;
}

/** What the autosave endpoint answers. */
export interface AutosaveResult {
  savedAt: string;
}

/** What the "Share a preview" endpoint answers: the new link (shown once), null after a revoke, or why it failed. */
export type PreviewLinkResult = { ok: true; url: string | null } | { ok: false; message: string };

/**
 * Which of the editor's submit buttons saved the form (its `intent`): the spec's save, which
 * returns to the list; "keep editing", the same rules but the editor stays open; "Save draft",
 * the draft rules (domain/post.ts, domain/page.ts), never publishing, the editor staying open.
 */
export const SAVE_INTENTS = ["save", "stay", "draft"] as const;
export type SaveIntent = (typeof SAVE_INTENTS)[number];

export function readSaveIntent(formData: FormData): SaveIntent {
  return SAVE_INTENTS.find((intent) => intent === formData.get("intent")) ?? "save";
}
