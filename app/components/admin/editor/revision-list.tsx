import { Link } from "react-router";
import { formatDateTime } from "~/lib/format";
import { REVISION_KIND_LABELS, type PostRevisionSummary } from "#domain/revision.ts";
import { type EditedItem, editorPaths } from "./edited-item";

interface RevisionListProps {
  /** The post's id, or the page's when `kind` is "page". */
  postId: string;
  kind?: EditedItem["kind"];
  revisions: PostRevisionSummary[];
}

/** The post's or page's kept versions, newest first, each opening a word-level comparison with the current text. */
export function RevisionList({ postId, kind = "post", revisions }: RevisionListProps) {
  const paths = editorPaths({ kind, id: postId });
  return (
    <section aria-labelledby="revisions-heading" className="space-y-3">
      <h2 id="revisions-heading" className="text-lg font-semibold">
        Revisions
      </h2>
      {revisions.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">No revisions yet: every save keeps one.</p>
      ) : (
        <ol aria-label="Revisions" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {revisions.map((revision) => (
            <li key={revision.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
              <span>
                <Link
                  to={paths.revision(revision.id)}
                  className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  Revision {revision.number}
                </Link>{" "}
                <span className="text-slate-700 dark:text-slate-300">
                  {REVISION_KIND_LABELS[revision.kind]} by {revision.savedBy}
                </span>
              </span>
              <time dateTime={revision.createdAt} className="text-slate-600 dark:text-slate-400">
                {formatDateTime(revision.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
