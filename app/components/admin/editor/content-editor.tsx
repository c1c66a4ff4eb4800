import {
  type ClipboardEvent,
  type KeyboardEvent,
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useMemo,
  useState,
} from "react";
import type { ControlProps } from "~/components/ui/field";
import { inputStyles } from "~/components/ui/styles";
import { useHydrated } from "~/lib/use-hydrated";
import type { PostFormat } from "#domain/post.ts";
import {
  continueList,
  countWords,
  imageBlock,
  type ImageDetails,
  insertBlock,
  insertCodeBlock,
  insertLink,
  insertTable,
  numberLines,
  prefixLines,
  setHeading,
  type TextEdit,
  type TextState,
  wrapSelection,
} from "./markdown-commands";
import { ImageDialog } from "./image-dialog";
import type { EditedItem } from "./edited-item";
import { AUTOSAVE_STATUS_TEXT, useAutosave } from "./use-autosave";
import { usePreview } from "./use-preview";
import { useWritingView } from "./use-writing-view";
import { WritingViewSwitch } from "./writing-view-switch";

// Loaded only when a writer opens the visual view: the Markdown view and every reader's page go without it.
// A chunk that fails to load (replaced by a deploy, the writer offline) shows a note in the view's place:
// reaching the route's error boundary would replace the form and lose the unsaved text.
const VisualEditor = lazy(() => import("./visual/visual-editor").catch(() => ({ default: VisualViewUnavailable })));

function VisualViewUnavailable() {
  return (
    <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
      The visual view could not load. Switch to Markdown to go on writing; nothing you wrote is lost.
    </p>
  );
}

interface ContentEditorProps {
  control: ControlProps;
  defaultValue: string;
  format: PostFormat;
  /** The post or page being edited; autosave needs it (a new one is autosaved once it exists). */
  item: EditedItem | undefined;
}

/** A toolbar button: its accessible label, its shortcut letter, what it shows, and its edit ("image" opens the image dialog). */
type Command = {
  label: string;
  shortcut?: string;
  symbol: string;
  run: ((state: TextState) => TextEdit | undefined) | "image";
};

const COMMANDS: Command[] = [
  { label: "Bold", shortcut: "b", symbol: "B", run: (state) => wrapSelection(state, "**", "bold text") },
  { label: "Italic", shortcut: "i", symbol: "I", run: (state) => wrapSelection(state, "_", "italic text") },
  { label: "Heading 2", symbol: "H2", run: (state) => setHeading(state, 2) },
  { label: "Heading 3", symbol: "H3", run: (state) => setHeading(state, 3) },
  { label: "Link", shortcut: "k", symbol: "Link", run: insertLink },
  { label: "Quote", symbol: "❝", run: (state) => prefixLines(state, "> ") },
  { label: "Bulleted list", symbol: "•", run: (state) => prefixLines(state, "- ") },
  { label: "Numbered list", symbol: "1.", run: numberLines },
  { label: "Inline code", symbol: "`c`", run: (state) => wrapSelection(state, "`", "code") },
  { label: "Code block", symbol: "{ }", run: insertCodeBlock },
  { label: "Table", symbol: "Table", run: insertTable },
  { label: "Image", symbol: "Image", run: "image" },
];

/** Replaces text the way typing would, so the browser's undo still works. */
function applyEdit(textarea: HTMLTextAreaElement, edit: TextEdit) {
  textarea.focus();
  textarea.setSelectionRange(edit.from, edit.to);
  // execCommand keeps the native undo stack; setRangeText is the fallback where it is unavailable.
  const inserted =
    edit.insert === "" ? document.execCommand("delete") : document.execCommand("insertText", false, edit.insert);
  if (!inserted) {
    textarea.setRangeText(edit.insert, edit.from, edit.to, "end");
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }
  textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
}

const textState = (textarea: HTMLTextAreaElement): TextState => ({
  value: textarea.value,
  start: textarea.selectionStart,
  end: textarea.selectionEnd,
});

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The body's editor: a plain textarea that saves without JavaScript; with it, a Markdown
 * toolbar and shortcuts, list continuation, HTML pasted as Markdown, a live preview from
 * the server's own pipeline (beside the text on wide screens, in a tab on narrow ones),
 * a word count and autosave.
 */
export function ContentEditor({ control, defaultValue, format, item }: ContentEditorProps) {
  const hydrated = useHydrated();
  const [textarea, setTextarea] = useState<HTMLTextAreaElement | null>(null);
  const [writingView, chooseWritingView] = useWritingView();
  const [form, setForm] = useState<HTMLFormElement | null>(null);
  const [content, setContent] = useState(defaultValue);
  const [tab, setTab] = useState<"write" | "preview">("write");
  // The toolbar is one tab stop; arrow keys move between its buttons (WAI-ARIA toolbar pattern).
  const [focused, setFocused] = useState(0);
  const [imageAt, setImageAt] = useState<TextState>();
  const autosave = useAutosave(form, item);
  const preview = usePreview(content, format, hydrated);
  const markdown = format === "markdown";
  const visual = hydrated && markdown && writingView === "visual";
  const modifier = hydrated && isMac() ? "⌘" : "Ctrl+";

  // Stable, so React calls it only when the textarea mounts and unmounts.
  const attachTextarea = useCallback((element: HTMLTextAreaElement | null) => {
    setTextarea(element);
    setForm(element?.form ?? null);
  }, []);

  const run = (command: Command) => {
    if (!textarea) return;
    if (command.run === "image") {
      setImageAt(textState(textarea));
      return;
    }
    const edit = command.run(textState(textarea));
    if (edit) applyEdit(textarea, edit);
  };

  const insertImage = (image: ImageDetails) => {
    if (textarea && imageAt) applyEdit(textarea, insertBlock(imageAt, imageBlock(image)));
    setImageAt(undefined);
  };

  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: focused + 1,
      ArrowLeft: focused - 1,
      Home: 0,
      End: COMMANDS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + COMMANDS.length) % COMMANDS.length;
    setFocused(index);
    event.currentTarget.querySelectorAll("button")[index]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!markdown || event.nativeEvent.isComposing) return;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      const command = COMMANDS.find((candidate) => candidate.shortcut === event.key.toLowerCase());
      if (command) {
        event.preventDefault();
        run(command);
      }
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      const edit = continueList(textState(event.currentTarget));
      if (edit) {
        event.preventDefault();
        applyEdit(event.currentTarget, edit);
      }
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const html = event.clipboardData.getData("text/html");
    if (!markdown || !html) return;
    event.preventDefault();
    const textarea = event.currentTarget;
    const state = textState(textarea);
    void import("turndown").then(({ default: TurndownService }) => {
      const converted = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
        .remove(["script", "style"])
        .turndown(html);
      const end = state.start + converted.length;
      applyEdit(textarea, { from: state.start, to: state.end, insert: converted, selectStart: end, selectEnd: end });
    });
  };

  const words = useMemo(() => countWords(content), [content]);

  return (
    <div>
      {hydrated ? (
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          {markdown && !visual ? (
            <div
              role="toolbar"
              aria-label="Markdown toolbar"
              aria-controls={control.id}
              onKeyDown={onToolbarKeyDown}
              className="flex flex-wrap gap-1"
            >
              {COMMANDS.map((command, index) => (
                <button
                  key={command.label}
                  type="button"
                  tabIndex={index === focused ? 0 : -1}
                  onFocus={() => setFocused(index)}
                  onClick={() => run(command)}
                  title={
                    command.shortcut ? `${command.label} (${modifier}${command.shortcut.toUpperCase()})` : command.label
                  }
                  aria-keyshortcuts={
                    command.shortcut
                      ? `Control+${command.shortcut.toUpperCase()} Meta+${command.shortcut.toUpperCase()}`
                      : undefined
                  }
                  className="min-w-9 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
                >
                  {/* The symbol is what the eye needs; the name is the label (and a voice command can say it). */}
                  <span aria-hidden="true">{command.symbol}</span>
                  <span className="sr-only">{command.label}</span>
                </button>
              ))}
            </div>
          ) : (
            <span />
          )}
          {markdown ? (
            <WritingViewSwitch
              view={writingView}
              onChoose={(view) => {
                chooseWritingView(view);
                // The Markdown view opens where the visual one left the caret.
                if (view === "markdown") requestAnimationFrame(() => textarea?.focus());
              }}
            />
          ) : null}
          {/* The visual view reads as the page will: it needs no preview beside it. */}
          <div role="tablist" aria-label="Editor view" className={visual ? "hidden" : "flex gap-1 lg:hidden"}>
            {(["write", "preview"] as const).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`${control.id}-tab-${name}`}
                aria-selected={tab === name}
                aria-controls={`${control.id}-panel-${name}`}
                onClick={() => setTab(name)}
                className={`rounded-md px-3 py-1 text-sm font-semibold ${
                  tab === name
                    ? "bg-indigo-700 text-white dark:bg-indigo-300 dark:text-slate-950"
                    : "text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"
                }`}
              >
                {name === "write" ? "Write" : "Preview"}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <div className={hydrated && !visual ? "grid gap-4 lg:grid-cols-2" : undefined}>
        <div id={`${control.id}-panel-write`} className={tab === "preview" && !visual ? "hidden lg:block" : undefined}>
          {visual && textarea ? (
            <Suspense fallback={<p className="text-sm">Loading the visual editor…</p>}>
              <VisualEditor textarea={textarea} label="Content" />
            </Suspense>
          ) : null}
          <textarea
            {...control}
            ref={attachTextarea}
            name="content"
            rows={12}
            defaultValue={defaultValue}
            onChange={(event) => {
              const value = event.currentTarget.value;
              // The count and the preview follow as a transition, so a keystroke in a long post
              // paints before React redraws them (and the next keystroke interrupts that redraw).
              startTransition(() => setContent(value));
              control.onChange();
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            hidden={visual}
            className={`${inputStyles} h-full font-mono`}
          />
        </div>
        {hydrated && !visual ? (
          <section
            id={`${control.id}-panel-preview`}
            aria-label="Preview"
            className={`max-h-[32rem] min-h-40 overflow-y-auto rounded-lg border border-slate-300 p-4 dark:border-slate-600 ${
              tab === "write" ? "hidden lg:block" : ""
            }`}
            tabIndex={0}
          >
            {preview?.failed ? (
              <p className="mb-2 text-sm text-red-700 dark:text-red-300">The preview could not be updated.</p>
            ) : null}
            <div className="post-content" dangerouslySetInnerHTML={{ __html: preview?.html ?? "" }} />
          </section>
        ) : null}
      </div>
      {hydrated && markdown && !visual ? (
        <ImageDialog
          open={imageAt !== undefined}
          onInsert={insertImage}
          onClose={() => {
            setImageAt(undefined);
            textarea?.focus();
          }}
        />
      ) : null}
      {hydrated ? (
        <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600 dark:text-slate-400">
          <span>
            {words.toLocaleString("en-US")} {words === 1 ? "word" : "words"}
          </span>
          {preview && preview.readingMinutes > 0 ? <span>{preview.readingMinutes} min read</span> : null}
          <span role="status" aria-live="polite" data-autosave={autosave}>
            {item ? AUTOSAVE_STATUS_TEXT[autosave] : ""}
          </span>
        </p>
      ) : null}
    </div>
  );
}
