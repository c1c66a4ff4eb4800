import type { EditorState } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";
import { BLOCK_ACTIONS, type BlockAction } from "./commands";

/** "/" typed at the start of an empty paragraph, and the word after it: the menu's search. */
export function slashQuery(state: EditorState): { query: string; from: number; to: number } | undefined {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type.name !== "paragraph" || $from.parentOffset !== $from.parent.content.size)
    return undefined;
  const match = /^\/(\w*)$/.exec($from.parent.textContent);
  return match ? { query: match[1]!.toLowerCase(), from: $from.start(), to: $from.pos } : undefined;
}

export const matchingActions = (query: string): BlockAction[] =>
  BLOCK_ACTIONS.filter((action) => `${action.label} ${action.keywords}`.toLowerCase().includes(query));

interface SlashMenuProps {
  view: EditorView;
  from: number;
  options: BlockAction[];
  selected: number;
  onPick: (action: BlockAction) => void;
}

/**
 * The "/" menu: the blocks the writer can insert, filtered by what follows the slash. The caret
 * stays in the text (arrows move, Enter inserts, Escape closes); the choice is announced.
 */
export function SlashMenu({ view, from, options, selected, onPick }: SlashMenuProps) {
  const index = Math.min(selected, options.length - 1);
  const caret = view.coordsAtPos(from);
  const box = (view.dom.parentElement ?? view.dom).getBoundingClientRect();
  return (
    <>
      <ul
        role="listbox"
        aria-label="Insert a block"
        className="absolute z-10 w-56 rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900"
        style={{ left: caret.left - box.left, top: caret.bottom - box.top + 4 }}
      >
        {options.map((action, position) => (
          <li
            key={action.label}
            role="option"
            aria-selected={position === index}
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(action);
            }}
            className={`cursor-pointer px-3 py-1 ${
              position === index
                ? "bg-indigo-700 text-white dark:bg-indigo-300 dark:text-slate-950"
                : "text-slate-800 dark:text-slate-100"
            }`}
          >
            {action.label}
          </li>
        ))}
      </ul>
      <p aria-live="polite" className="sr-only">
        {`${options.length} ${options.length === 1 ? "block" : "blocks"}, ${options[index]!.label} selected`}
      </p>
    </>
  );
}
