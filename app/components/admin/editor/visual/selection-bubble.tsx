import type { EditorState } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";

export interface BubbleButton {
  label: string;
  symbol: string;
  pressed: boolean;
  run: () => void;
}

/**
 * The formatting buttons beside a selection, for the mouse: the toolbar above the text holds
 * the same actions for the keyboard, so these stay out of the Tab order and out of the
 * accessibility tree (aria-hidden) rather than being announced twice.
 */
export function SelectionBubble({
  view,
  state,
  buttons,
}: {
  view: EditorView;
  state: EditorState;
  buttons: BubbleButton[];
}) {
  const { from, empty } = state.selection;
  if (empty || !view.hasFocus()) return null;
  const start = view.coordsAtPos(from);
  const box = (view.dom.parentElement ?? view.dom).getBoundingClientRect();
  return (
    <div
      aria-hidden="true"
      className="absolute z-10 flex gap-1 rounded-md border border-slate-300 bg-white p-1 shadow-lg dark:border-slate-600 dark:bg-slate-900"
      style={{ left: Math.max(0, start.left - box.left), top: Math.max(0, start.top - box.top - 40) }}
    >
      {buttons.map((button) => (
        <button
          key={button.label}
          type="button"
          tabIndex={-1}
          title={button.label}
          data-pressed={button.pressed}
          onMouseDown={(event) => {
            event.preventDefault();
            button.run();
          }}
          className="min-w-8 rounded px-2 py-0.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 data-[pressed=true]:bg-indigo-100 dark:text-slate-100 dark:hover:bg-slate-800 dark:data-[pressed=true]:bg-indigo-900"
        >
          {button.symbol}
        </button>
      ))}
    </div>
  );
}
