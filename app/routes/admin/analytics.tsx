import { data, Link } from "react-router";
import { dayLabel } from "~/components/admin/analytics-format";
import { AnalyticsRangePicker } from "~/components/admin/analytics-range-picker";
import {
  AnalyticsTotals,
  CountSection,
  FeedReadersPanel,
  ReportListPanel,
  SeriesSection,
} from "~/components/admin/analytics-tables";
import { RouteErrorMessage } from "~/components/admin/route-error-message";
import { textLinkStyles } from "~/components/ui/styles";
import { requireAdmin } from "~/lib/auth.server";
import { titlesOfPaths } from "~/lib/path-titles.server";
import { PAGE_NOT_FOUND_MESSAGE } from "~/lib/pagination.server";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { ANALYTICS_RANGE_LABELS, readAnalyticsRange } from "#domain/analytics-ranges.ts";
import { isReportListDimension, REPORT_LIST_PAGES_MAX, type ReportListDimension } from "#domain/analytics-report.ts";
import { queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/analytics";

const LOAD_FAILED_MESSAGE = "Failed to load analytics. Please try again.";

/** `?list=path&page=2`: one list past its first page; anything else names no page (404). */
function readListPage(url: URL): { dimension: ReportListDimension; page: number } | undefined {
  const list = queryText(url, "list");
  const page = queryText(url, "page");
  if (!list && !page) return undefined;
  const number = /^\d{1,2}$/.test(page) ? Number(page) : 0;
  if (!isReportListDimension(list) || number < 1 || number > REPORT_LIST_PAGES_MAX) {
    throw data<RouteErrorData>({ message: PAGE_NOT_FOUND_MESSAGE }, { status: 404 });
  }
  return { dimension: list, page: number };
}

/** Counts of readers hold no personal data (docs/decisions/0016-analytics.md): every writer may see them. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: LOAD_FAILED_MESSAGE },
  async ({ request, context }: Route.LoaderArgs) => {
    requireAdmin({ request, context });
    const { services, site } = context.get(appContext);
    const url = new URL(request.url);
    const today = services.analyticsReports.today(site.timeZone);
    const query = { range: queryText(url, "range"), from: queryText(url, "from"), to: queryText(url, "to") };
    const range = readAnalyticsRange(query, today);
    if (!range.ok) throw data<RouteErrorData>({ message: range.message }, { status: 400 });
    const listPage = readListPage(url);
    const [report, settings] = await Promise.all([
      services.analyticsReports.report(range.value, site.timeZone, listPage),
      services.analytics.settings(),
    ]);
    const paths = report.lists.find((list) => list.dimension === "path")?.rows.map((row) => row.value) ?? [];
    const pathTitles = paths.length ? await titlesOfPaths(services, paths) : {};
    return { report, pathTitles, today, timeZone: site.timeZone, counting: settings.enabled };
  },
);

/** The address of this range, with `extra` parameters. */
function rangeHref(range: { key: string; from: string; to: string }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(
    range.key === "custom" ? { from: range.from, to: range.to } : range.key === "today" ? {} : { range: range.key },
  );
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const search = params.toString();
  return search ? `/admin/analytics?${search}` : "/admin/analytics";
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { report, pathTitles, today, timeZone, counting } = loaderData;
  const { range } = report;
  const span = range.from === range.to ? dayLabel(range.from) : `${dayLabel(range.from)} to ${dayLabel(range.to)}`;
  const exportHref = `/admin/analytics/export.csv?${new URLSearchParams({ from: range.from, to: range.to })}`;
  return (
    <>
      <title>Analytics · Admin</title>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Analytics</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {ANALYTICS_RANGE_LABELS[range.key]}: {span} ({timeZone}).
          </p>
        </div>
        <div className="flex flex-wrap gap-4 text-sm">
          <a href={exportHref} download className={textLinkStyles}>
            Export CSV
          </a>
          <Link to="/admin/analytics/settings" className={textLinkStyles}>
            Analytics settings
          </Link>
        </div>
      </div>

      {counting ? null : (
        <p className="mt-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          Counting is off: readers are not counted until you turn it on in{" "}
          <Link to="/admin/analytics/settings" className="font-semibold underline underline-offset-4">
            Analytics settings
          </Link>
          .
        </p>
      )}

      <AnalyticsRangePicker key={`${range.from}-${range.to}`} range={range} today={today} />

      <AnalyticsTotals totals={report.totals} previous={report.previous} visitorsNow={report.visitorsNow} />
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
        Visitors over several days are the sum of each day&apos;s visitors: by design, no one is followed from one day
        to the next. Readers without JavaScript, crawlers and signed-in writers are not counted.
      </p>

      <div className="mt-6">
        <SeriesSection series={report.series} granularity={range.granularity} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        {/* Countries are known only with GEOIP_DB: without one the list would always be empty. */}
        {report.lists
          .filter((list) => list.dimension !== "country" || list.rows.length > 0 || list.page > 1)
          .map((list) => (
            <ReportListPanel
              key={list.dimension}
              list={list}
              titles={list.dimension === "path" ? pathTitles : undefined}
              pageHref={(page) => rangeHref(range, page === 1 ? {} : { list: list.dimension, page: String(page) })}
            />
          ))}
        <CountSection
          id="subscribers"
          title="Newsletter subscribers"
          noun="subscribers"
          points={report.subscribers}
          granularity={range.granularity}
        />
        <CountSection
          id="followers"
          title="Fediverse followers"
          noun="followers"
          points={report.followers}
          granularity={range.granularity}
        />
        <FeedReadersPanel readers={report.feedReaders} />
      </div>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorMessage error={error} fallback={LOAD_FAILED_MESSAGE} />;
}
