import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { baseKeymap, toggleMark } from "prosemirror-commands";
import { history } from "prosemirror-history";
import { keymap } from "prosemirror-keymap";
import { EditorState, TextSelection, type Transaction } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { altFromFileName, useImageUpload } from "~/components/admin/image-upload";
import { ImageDialog } from "../image-dialog";
import { type ImageDetails, imageBlock, insertBlock } from "../markdown-commands";
import { markdownOffset, positionFromMarkdown } from "./caret";
import {
  addColumn,
  addRow,
  alignColumn,
  BLOCK_ACTIONS,
  type BlockAction,
  inTable,
  MARK_ACTIONS,
  markActive,
  markdownInputRules,
  visualKeys,
} from "./commands";
import { embedCards } from "./embed-cards";
import { parseMarkdown, serializeMarkdown, type VisualDocument } from "./markdown";
import { visualSchema as schema } from "./schema";
import { SelectionBubble } from "./selection-bubble";
import { matchingActions, slashQuery, SlashMenu } from "./slash-menu";
import { wordListsAsLists } from "./word-lists";

interface VisualEditorProps {
  /** The form's Markdown textarea: the one field that is saved, autosaved and counted. */
  textarea: HTMLTextAreaElement;
  label: string;
}

/** Sets the textarea's text as typing would, so React, autosave and the word count all hear it. */
function writeTextarea(textarea: HTMLTextAreaElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(textarea, value);
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * The Markdown is written back once typing pauses this long, so a keystroke never shares its
 * frame with the textarea, the word count and the copy kept for recovery...
 */
const WRITE_PAUSE_MS = 250;
/** ...and at least this often while typing goes on, so the count and autosave keep up. */
const WRITE_AT_MOST_EVERY_MS = 1000;

/**
 * Everything the toolbar, the selection bubble and the "/" menu show, in one string: React
 * redraws them only when it changes, so typing along a line costs no render at all.
 */
function toolbarSignature(state: EditorState): string {
  const { from, to, empty } = state.selection;
  return JSON.stringify([
    empty ? null : [from, to],
    slashQuery(state),
    inTable(state),
    MARK_ACTIONS.map((action) => markActive(state, action.mark)),
    BLOCK_ACTIONS.map((action) => action.active?.(state)),
  ]);
}

const firstImage = (files: FileList | undefined | null) =>
  Array.from(files ?? []).find((file) => file.type.startsWith("image/"));

const shortcutLabel = (shortcut: string | undefined) =>
  shortcut?.replace("Mod-", "Ctrl+").replace("Alt-", "Alt+").replace("Shift-", "Shift+").toUpperCase();

const buttonClass =
  "min-w-9 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-semibold text-slate-800 hover:bg-slate-100 aria-pressed:bg-indigo-100 aria-pressed:text-indigo-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 dark:aria-pressed:bg-indigo-900 dark:aria-pressed:text-white";

/**
 * The visual view: the same Markdown, edited as it reads (docs/decisions/0032). It writes every
 * change back into the Markdown textarea, which stays the form's field, so saving, autosave,
 * revisions and the word count are the Markdown view's own.
 */
export default function VisualEditor({ textarea, label }: VisualEditorProps) {
  const holder = useRef<HTMLDivElement>(null);
  // The view and its latest state, together, so every transaction renders the toolbar anew.
  const [editor, setEditor] = useState<{ view: EditorView; state: EditorState }>();
  const [imageOpen, setImageOpen] = useState(false);
  const [slashIndex, setSlashIndex] = useState(0);
  // The paragraph whose "/" menu the writer closed with Escape.
  const [dismissed, setDismissed] = useState<number>();
  const [focused, setFocused] = useState(0);
  const { upload, progress, error } = useImageUpload();

  useEffect(() => {
    let read: VisualDocument = parseMarkdown(textarea.value);
    let shown = "";
    const show = (state: EditorState) => {
      shown = toolbarSignature(state);
      setEditor({ view, state });
    };
    let written = textarea.value;
    let pending: ReturnType<typeof setTimeout> | undefined;
    // When the first change not yet written was made.
    let unwrittenSince: number | undefined;
    // The textarea (and with it React's word count, preview and autosave) hears of typing a moment
    // later, so a keystroke paints without waiting for them; a submit, a switch or leaving the page
    // flushes it first.
    const flush = () => {
      if (pending === undefined) return;
      clearTimeout(pending);
      pending = undefined;
      unwrittenSince = undefined;
      written = serializeMarkdown(view.state.doc, read);
      writeTextarea(textarea, written);
    };
    const openLink = () => linkPrompt(view);
    const plugins = [
      markdownInputRules(),
      keymap(visualKeys(openLink, () => setImageOpen(true))),
      keymap(baseKeymap),
      history(),
      embedCards(),
    ];
    const create = (position: number) => {
      const created = EditorState.create({ doc: read.doc, plugins });
      const at = Math.min(Math.max(position, 0), created.doc.content.size);
      return created.apply(created.tr.setSelection(TextSelection.near(created.doc.resolve(at))));
    };
    const uploadInto = (file: File, at: number) => {
      void upload(file).then((media) => {
        if (!media) return;
        // The writer switched to Markdown while it uploaded: the image goes where the picker would put it.
        if (view.isDestroyed) {
          const caret = textarea.selectionEnd;
          const image = imageBlock({ url: media.url, alt: altFromFileName(file.name), caption: "" });
          const edit = insertBlock({ value: textarea.value, start: caret, end: caret }, image);
          textarea.setRangeText(edit.insert, edit.from, edit.to, "preserve");
          textarea.dispatchEvent(new Event("input", { bubbles: true }));
          return;
        }
        const figure = schema.nodes.figure!.create({ src: media.url, alt: altFromFileName(file.name) });
        view.dispatch(view.state.tr.insert(Math.min(at, view.state.doc.content.size), figure));
      });
    };
    const view: EditorView = new EditorView(holder.current, {
      state: create(positionFromMarkdown(read, textarea.value, textarea.selectionStart)),
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        class: "post-content visual-editor min-h-64 rounded-md border border-slate-300 p-4 dark:border-slate-600",
      },
      dispatchTransaction(transaction: Transaction) {
        const next = view.state.apply(transaction);
        view.updateState(next);
        if (transaction.docChanged) {
          unwrittenSince ??= performance.now();
          const waited = performance.now() - unwrittenSince;
          clearTimeout(pending);
          pending = setTimeout(flush, Math.max(0, Math.min(WRITE_PAUSE_MS, WRITE_AT_MOST_EVERY_MS - waited)));
        }
        if (toolbarSignature(next) !== shown) show(next);
      },
      transformPastedHTML: wordListsAsLists,
      handlePaste(_view, event) {
        const file = firstImage(event.clipboardData?.files);
        if (!file) return false;
        uploadInto(file, view.state.selection.from);
        return true;
      },
      handleDrop(_view, event) {
        const file = firstImage(event.dataTransfer?.files);
        if (!file) return false;
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.selection.from;
        uploadInto(file, at);
        return true;
      },
    });
    show(view.state);
    // Something else changed the Markdown (an image from the uploader, a restored draft): read it again.
    const onInput = () => {
      if (textarea.value === written) return;
      written = textarea.value;
      read = parseMarkdown(written);
      view.updateState(create(view.state.selection.from));
      show(view.state);
    };
    textarea.addEventListener("input", onInput);
    textarea.form?.addEventListener("submit", flush);
    // Captured, so the text is in the textarea before the autosave's own listener asks whether it is kept.
    window.addEventListener("beforeunload", flush, { capture: true });
    return () => {
      flush();
      textarea.removeEventListener("input", onInput);
      textarea.form?.removeEventListener("submit", flush);
      window.removeEventListener("beforeunload", flush, { capture: true });
      // The Markdown view opens where the writer was.
      const offset = markdownOffset(read, view.state.doc, view.state.selection.from);
      textarea.setSelectionRange(offset, offset);
      view.destroy();
    };
  }, [textarea, label, upload]);

  const view = editor?.view;
  const state = editor?.state;
  const query = state ? slashQuery(state) : undefined;
  const slash = query && query.from !== dismissed ? query : undefined;
  const options = slash ? matchingActions(slash.query) : [];

  const runBlock = (action: BlockAction) => {
    if (!view) return;
    if (slash) view.dispatch(view.state.tr.delete(slash.from, slash.to));
    if (action.run === "image") setImageOpen(true);
    else if (action.run === "link") linkPrompt(view);
    else action.run(view.state, view.dispatch);
    // Focusing a focused editor reads the selection again and would drop a mark just switched on.
    if (!view.hasFocus()) view.focus();
  };

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!slash || options.length === 0) return;
    const moves: Record<string, number> = { ArrowDown: slashIndex + 1, ArrowUp: slashIndex - 1 };
    if (event.key in moves) {
      setSlashIndex((moves[event.key]! + options.length) % options.length);
    } else if (event.key === "Enter") {
      runBlock(options[Math.min(slashIndex, options.length - 1)]!);
      setSlashIndex(0);
    } else if (event.key === "Escape") {
      setDismissed(slash.from);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const tableActions = state && inTable(state);
  const buttons = [
    ...MARK_ACTIONS.map((action) => ({
      label: action.label,
      symbol: action.symbol,
      shortcut: action.shortcut,
      pressed: state ? markActive(state, action.mark) : false,
      run: () => view && toggleMark(action.mark)(view.state, view.dispatch),
    })),
    ...BLOCK_ACTIONS.filter((action) => action.label !== "Text").map((action) => ({
      label: action.label,
      symbol: action.label,
      shortcut: action.shortcut,
      pressed: state && action.active ? action.active(state) : undefined,
      run: () => runBlock(action),
    })),
    ...(tableActions
      ? [
          { label: "Add row", run: addRow },
          { label: "Add column", run: addColumn },
          { label: "Align column left", run: alignColumn("left") },
          { label: "Align column centre", run: alignColumn("center") },
          { label: "Align column right", run: alignColumn("right") },
        ].map((action) => ({
          label: action.label,
          symbol: action.label,
          shortcut: undefined,
          pressed: undefined,
          run: () => view && action.run(view.state, view.dispatch),
        }))
      : []),
  ];

  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: focused + 1,
      ArrowLeft: focused - 1,
      Home: 0,
      End: buttons.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + buttons.length) % buttons.length;
    setFocused(index);
    event.currentTarget.querySelectorAll("button")[index]?.focus();
  };

  const insertImage = (image: ImageDetails) => {
    setImageOpen(false);
    if (!view) return;
    view.dispatch(
      view.state.tr.replaceSelectionWith(
        schema.nodes.figure!.create({ src: image.url, alt: image.alt, caption: image.caption }),
      ),
    );
    view.focus();
  };

  return (
    <div className="relative">
      <div
        role="toolbar"
        aria-label="Visual toolbar"
        onKeyDown={onToolbarKeyDown}
        className="mb-2 flex flex-wrap gap-1"
      >
        {buttons.map((button, index) => (
          <button
            key={button.label}
            type="button"
            tabIndex={index === Math.min(focused, buttons.length - 1) ? 0 : -1}
            onFocus={() => setFocused(index)}
            onMouseDown={(event) => event.preventDefault()}
            onClick={button.run}
            aria-pressed={button.pressed}
            title={button.shortcut ? `${button.label} (${shortcutLabel(button.shortcut)})` : button.label}
            aria-keyshortcuts={button.shortcut?.replace("Mod-", "Control+").replace(/-/g, "+")}
            className={buttonClass}
          >
            <span aria-hidden="true">{button.symbol}</span>
            <span className="sr-only">{button.label}</span>
          </button>
        ))}
      </div>
      <div ref={holder} onKeyDownCapture={onKeyDownCapture} />
      {view && state ? (
        <SelectionBubble
          view={view}
          state={state}
          buttons={[
            ...buttons.slice(0, MARK_ACTIONS.length).map((button) => ({ ...button, pressed: Boolean(button.pressed) })),
            { label: "Link", symbol: "Link", pressed: false, run: () => linkPrompt(view) },
          ]}
        />
      ) : null}
      {view && slash && options.length > 0 ? (
        <SlashMenu view={view} from={slash.from} options={options} selected={slashIndex} onPick={runBlock} />
      ) : null}
      <div aria-live="polite" className="min-h-5 text-sm">
        {progress !== null ? (
          <label className="flex items-center gap-2">
            Uploading image <progress max={1} value={progress} className="h-2 w-40 accent-indigo-600" />
          </label>
        ) : null}
        {error ? (
          <p role="alert" className="text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
      <ImageDialog
        open={imageOpen}
        onInsert={insertImage}
        onClose={() => {
          setImageOpen(false);
          view?.focus();
        }}
      />
    </div>
  );
}

/** Asks for the link's address; an empty answer takes the link off. */
function linkPrompt(view: EditorView) {
  const { from, to, empty } = view.state.selection;
  const link = schema.marks.link!;
  const current = view.state.doc.rangeHasMark(from, to, link);
  const href = window.prompt("Link address", current ? "" : "https://");
  if (href === null) return;
  const tr = view.state.tr;
  if (href.trim() === "" || current) tr.removeMark(from, to, link);
  if (href.trim() !== "") {
    if (empty) tr.insertText(href, from).addMark(from, from + href.length, link.create({ href }));
    else tr.addMark(from, to, link.create({ href: href.trim() }));
  }
  view.dispatch(tr);
  view.focus();
}
