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

/**
 * A file input whose "Choose file" is a house button, the chosen file's name beside it: the
 * browser's own control restyled, so it works the same without JavaScript.
 */
export const fileInputStyles =
  "block w-full max-w-full text-sm text-slate-700 dark:text-slate-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100 dark:hover:file:bg-slate-800";

export const checkboxStyles = "mt-0.5 h-4 w-4 rounded border-slate-300 accent-indigo-600";

export const labelStyles = "mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200";

export const fieldErrorStyles = "mt-1 text-sm font-medium text-red-700 dark:text-red-300";

export const fieldHintStyles = "mt-1 text-xs text-slate-600 dark:text-slate-400";

export const formErrorStyles =
  "rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200";
