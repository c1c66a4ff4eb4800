/** Shared class lists, so every button and link looks and focuses the same in both themes. */
export const buttonStyles = {
  primary:
    "inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-indigo-800 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-indigo-300 dark:text-slate-950 dark:hover:bg-indigo-200",
  secondary:
    "inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 transition-colors hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
} as const;

export const textLinkStyles =
  "font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-4 hover:decoration-2 dark:text-indigo-300 dark:decoration-indigo-500";

export const inputStyles =
  "block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-600 aria-invalid:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 dark:aria-invalid:border-red-400";

export const checkboxStyles = "mt-0.5 h-4 w-4 rounded border-slate-300 accent-indigo-600";

export const labelStyles = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";

export const fieldErrorStyles = "mt-1 text-sm font-medium text-red-700 dark:text-red-300";

export const fieldHintStyles = "mt-1 text-xs text-slate-600 dark:text-slate-400";

export const formErrorStyles =
  "rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200";
