import { Form, Link, useNavigation } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { formatDateTime } from "~/lib/format";
import type { compareRevision, DiffPart } from "./revision-diff";

/** What the revision screen says when it cannot load, on the page and in its error boundary. */
export const REVISION_LOAD_FAILED_MESSAGE = "Failed to load revision";

function Diff({ parts, label }: { parts: DiffPart[]; label: string }) {
  return (
    <div
      aria-label={label}
      role="group"
      className="rounded-md border border-slate-200 bg-white p-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap dark:border-slate-800 dark:bg-slate-900"
    >
      {parts.map((part, index) =>
        part.change === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.change === "restored" ? (
          <ins
            key={index}
            className="bg-emerald-100 text-emerald-900 no-underline dark:bg-emerald-900/60 dark:text-emerald-100"
          >
            {part.text}
          </ins>
        ) : (
          <del key={index} className="bg-rose-100 text-rose-900 dark:bg-rose-900/60 dark:text-rose-100">
            {part.text}
          </del>
        ),
      )}
    </div>
  );
}

/** A revision beside the current text, with the button that restores it (a plain form post). */
export function RevisionView({
  comparison: { revision, title, content, unchanged },
  editorHref,
}: {
  comparison: ReturnType<typeof compareRevision>;
  editorHref: string;
}) {
  const navigation = useNavigation();
  const restoring = navigation.state === "submitting";
  return (
    <>
      <title>{`Revision ${revision.number} · Admin`}</title>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Revision {revision.number}</h1>
        <Link to={editorHref} className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Back to the editor
        </Link>
      </div>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {revision.kind} by {revision.savedBy} on{" "}
        <time dateTime={revision.createdAt}>{formatDateTime(revision.createdAt)}</time> (
        {revision.format === "markdown" ? "Markdown" : "HTML"}).
      </p>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Differences from the current text:{" "}
        <ins className="bg-emerald-100 no-underline dark:bg-emerald-900/60">restoring brings back</ins> and{" "}
        <del className="bg-rose-100 dark:bg-rose-900/60">restoring removes</del>.
      </p>
      <h2 className="mt-6 mb-2 text-lg font-semibold">Title</h2>
      <Diff parts={title} label="Title differences" />
      <h2 className="mt-6 mb-2 text-lg font-semibold">Content</h2>
      <Diff parts={content} label="Content differences" />
      <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={restoring} className={buttonStyles.primary}>
          {restoring ? "Restoring…" : "Restore this revision"}
        </button>
        {unchanged ? (
          <span className="text-sm text-slate-600 dark:text-slate-400">This is the current text.</span>
        ) : null}
      </Form>
    </>
  );
}
