import { useEffect } from "react";
import { useLocation, useRevalidator } from "react-router";
import { ImportReportView } from "~/components/admin/import-form";
import { textLinkStyles } from "~/components/ui/styles";
import { formatDateTime } from "~/lib/format";
import {
  describeSubscriberImport,
  describeSubscriberImportProgress,
  type SubscriberImportStatus,
} from "#domain/subscribers.ts";

/** How often the open screen looks again while a CSV import runs. */
const PROGRESS_REFRESH_MS = 1_500;

/**
 * The import under way (rows read so far, looked at again every PROGRESS_REFRESH_MS with
 * JavaScript, a Refresh link without) or cut short; nothing once it finished, which has its report.
 */
export function SubscriberImportProgress({ status }: { status: SubscriberImportStatus | undefined }) {
  const running = status?.state === "running";
  const revalidator = useRevalidator();
  const { search } = useLocation();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  const message = status && describeSubscriberImportProgress(status);
  if (!message) return null;
  return (
    <p
      role="status"
      className={
        running
          ? "rounded-lg border border-slate-300 bg-slate-50 px-4 py-3 text-sm dark:border-slate-700 dark:bg-slate-900"
          : "rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      }
    >
      {message}
      {running ? (
        <>
          {" "}
          <a href={`/admin/subscribers${search}`} className={textLinkStyles}>
            Refresh
          </a>
        </>
      ) : null}
    </p>
  );
}

/** The latest finished import's report, kept until the next import. */
export function SubscriberImportReport({ status }: { status: SubscriberImportStatus | undefined }) {
  if (status?.state !== "finished") return null;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-600 dark:text-slate-400">
        The last import, by {status.startedBy}, ended{" "}
        <time dateTime={status.finishedAt}>{formatDateTime(status.finishedAt)}</time>.
      </p>
      <ImportReportView result={{ lines: describeSubscriberImport(status.report) }} />
    </div>
  );
}
