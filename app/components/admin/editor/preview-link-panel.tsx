import { useFetcher } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { formatDateTime } from "~/lib/format";
import type { PreviewLinkResult } from "#domain/editor.ts";
import { type EditedItem, editorPaths } from "./edited-item";

interface PreviewLinkPanelProps {
  /** The post's id, or the page's when `kind` is "page". */
  postId: string;
  kind?: EditedItem["kind"];
  /** When the post's live link was made, if it has one. */
  activeSince: string | undefined;
  published: boolean;
}

/** "Share a preview": a secret link to the draft post or page as readers will see it, shown once, revocable. */
export function PreviewLinkPanel({ postId, kind = "post", activeSince, published }: PreviewLinkPanelProps) {
  const action = editorPaths({ kind, id: postId }).previewLink;
  const fetcher = useFetcher<PreviewLinkResult>();
  const result = fetcher.data;
  const busy = fetcher.state !== "idle";
  const hasLink = result?.ok ? result.url !== null : activeSince !== undefined;
  return (
    <section aria-labelledby="preview-link-heading" className="space-y-3">
      <h2 id="preview-link-heading" className="text-lg font-semibold">
        Share a preview
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {published
          ? `Published ${kind}s need no preview link: publishing ends every link.`
          : `A secret link shows this ${kind} as readers will see it, before it is published. Publishing or revoking ends it.`}
      </p>
      {result?.ok && result.url ? (
        <p className="text-sm">
          <label htmlFor="preview-link-url" className="block font-medium">
            Preview link (shown only now: copy it)
          </label>
          <input
            id="preview-link-url"
            readOnly
            value={result.url}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100"
          />
        </p>
      ) : hasLink && activeSince ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          A preview link made <time dateTime={activeSince}>{formatDateTime(activeSince)}</time> is active.
        </p>
      ) : null}
      {result && !result.ok ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {result.message}
        </p>
      ) : null}
      {published ? null : (
        <div className="flex flex-wrap gap-2">
          <fetcher.Form method="post" action={action}>
            <button type="submit" name="intent" value="share" disabled={busy} className={buttonStyles.secondary}>
              {hasLink ? "Make a new preview link" : "Share a preview"}
            </button>
          </fetcher.Form>
          {hasLink ? (
            <fetcher.Form method="post" action={action}>
              <button type="submit" name="intent" value="revoke" disabled={busy} className={buttonStyles.secondary}>
                Revoke preview links
              </button>
            </fetcher.Form>
          ) : null}
        </div>
      )}
    </section>
  );
}
