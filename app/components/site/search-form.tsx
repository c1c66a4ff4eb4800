import { Form } from "react-router";
import { SearchIcon } from "~/components/ui/icons";
import { inputStyles } from "~/components/ui/styles";

interface SearchFormProps {
  /** Distinguishes the header's form from a page's own, for ids and landmarks. */
  id: string;
  label: string;
  defaultValue?: string;
  /** Some places have a visible heading nearby; the label then only needs to reach screen readers. */
  hideLabel?: boolean;
  className?: string;
}

/** A GET form to /search: works without JavaScript, and with it navigates without a reload. */
export function SearchForm({ id, label, defaultValue = "", hideLabel = false, className = "" }: SearchFormProps) {
  const inputId = `${id}-q`;
  return (
    <Form method="get" action="/search" role="search" aria-label={label} className={className}>
      <label htmlFor={inputId} className={hideLabel ? "sr-only" : "mb-1 block text-sm font-medium"}>
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          key={defaultValue}
          type="search"
          name="q"
          defaultValue={defaultValue}
          placeholder="Search posts…"
          autoComplete="off"
          enterKeyHint="search"
          className={`${inputStyles} min-w-0 py-1.5`}
        />
        <button
          type="submit"
          className="inline-flex shrink-0 items-center justify-center rounded-lg bg-indigo-700 px-3 text-white hover:bg-indigo-800 dark:bg-indigo-300 dark:text-slate-950 dark:hover:bg-indigo-200"
        >
          <SearchIcon className="size-4" />
          <span className="sr-only">Search</span>
        </button>
      </div>
    </Form>
  );
}
