import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDateTime } from "~/lib/format";

const noticeClass =
  "mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100";

/**
 * What an editor says of an autosave newer than the last save: a link that opens the editor
 * on it (?recover=1, so it works without JavaScript), or, once opened, that saving keeps it.
 */
export function UnsavedNotice({ unsavedSince, recovering }: { unsavedSince: string | undefined; recovering: boolean }) {
  if (recovering) {
    return (
      <p role="status" className={noticeClass}>
        The editor shows your unsaved changes. Save to keep them.
      </p>
    );
  }
  if (!unsavedSince) return null;
  return (
    <div role="alert" className={`${noticeClass} flex flex-wrap items-center justify-between gap-3`}>
      <span>
        Changes autosaved on <time dateTime={unsavedSince}>{formatDateTime(unsavedSince)}</time> were never saved.
      </span>
      <Link to="?recover=1" replace className="font-semibold underline underline-offset-4">
        Recover unsaved changes
      </Link>
    </div>
  );
}

/** A short note above an editor, in the same amber as the unsaved-changes notice. */
export function EditorNote({ children }: { children: ReactNode }) {
  return (
    <p role="note" className={noticeClass}>
      {children}
    </p>
  );
}
