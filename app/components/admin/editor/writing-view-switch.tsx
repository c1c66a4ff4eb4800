import type { WritingView } from "./use-writing-view";

const VIEWS: { view: WritingView; label: string }[] = [
  { view: "visual", label: "Visual" },
  { view: "markdown", label: "Markdown" },
];

/** Visual or Markdown: two views of the same text, switched at any moment. */
export function WritingViewSwitch({ view, onChoose }: { view: WritingView; onChoose: (view: WritingView) => void }) {
  return (
    <div
      role="group"
      aria-label="Writing view"
      className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-600"
    >
      {VIEWS.map((option) => (
        <button
          key={option.view}
          type="button"
          aria-pressed={view === option.view}
          onClick={() => onChoose(option.view)}
          className={`rounded px-3 py-1 text-sm font-semibold ${
            view === option.view
              ? "bg-indigo-700 text-white dark:bg-indigo-300 dark:text-slate-950"
              : "text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"
          }`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
