import type { ReactNode } from "react";
import { Link } from "react-router";
import { describeChange, type Granularity } from "#domain/analytics-ranges.ts";
import {
  type CountPoint,
  type FeedReaderRow,
  type Figures,
  REPORT_LIST_PAGES_MAX,
  REPORT_LISTS,
  type ReportList,
  type SeriesPoint,
} from "#domain/analytics-report.ts";
import { textLinkStyles } from "~/components/ui/styles";
import { AnalyticsChart } from "./analytics-chart";
import { bucketLabel, formatCount, listValueLabel } from "./analytics-format";
import { Panel } from "./panel";

const CELL = "px-3 py-2";
/** As narrow as its figures, so the first column (a path, a source) takes the rest and wraps. */
const NUMBER_CELL = `${CELL} w-px whitespace-nowrap text-right tabular-nums`;
const VISITORS_COLOR = "#6366f1";
const VIEWS_COLOR = "#0d9488";
const COUNT_COLOR = "#d97706";

const BUCKET_NAMES: Record<Granularity, string> = { hour: "Hour", day: "Day", month: "Month" };

/** A compact table of figures; `caption` names it for screen readers and for the chart that points here. */
function FiguresTable({
  id,
  caption,
  columns,
  tall = false,
  children,
}: {
  id: string;
  caption: string;
  columns: readonly string[];
  /** Many rows (a chart's every hour or day): the table scrolls in a box of its own, which keys reach. */
  tall?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={tall ? "max-h-80 overflow-y-auto rounded-md border border-slate-100 dark:border-slate-800" : undefined}
      {...(tall ? { tabIndex: 0, role: "region", "aria-label": caption } : {})}
    >
      <table id={id} className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 border-b border-slate-200 bg-white text-xs font-semibold tracking-wide text-slate-600 uppercase dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300">
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={index === 0 ? CELL : NUMBER_CELL}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** The totals, each with its change against the period before, and the visitors of the last minutes. */
export function AnalyticsTotals({
  totals,
  previous,
  visitorsNow,
}: {
  totals: Figures;
  previous: Figures;
  visitorsNow: number;
}) {
  const cards = [
    { label: "Visitors", value: totals.visitors, change: describeChange(totals.visitors, previous.visitors) },
    { label: "Page views", value: totals.views, change: describeChange(totals.views, previous.views) },
    { label: "Visitors now", value: visitorsNow, change: undefined },
  ];
  return (
    <dl className="mt-6 grid gap-4 sm:grid-cols-3">
      {cards.map((card) => (
        <div
          key={card.label}
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{card.label}</dt>
          <dd className="mt-1 text-3xl font-bold tabular-nums" data-figure={card.label}>
            {formatCount(card.value)}
          </dd>
          <dd className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {card.change === undefined
              ? "in the last 5 minutes"
              : card.change === "new"
                ? "none in the period before"
                : card.change
                  ? `${card.change} on the period before`
                  : "none in this period or the one before"}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Visitors and page views over the range: the chart, and the table it draws. */
export function SeriesSection({ series, granularity }: { series: SeriesPoint[]; granularity: Granularity }) {
  const labels = series.map((point) => bucketLabel(point.bucket, granularity));
  return (
    <Panel id="series-heading" title="Visitors and page views">
      <AnalyticsChart
        tableId="series-table"
        labels={labels}
        lines={[
          { label: "Visitors", color: VISITORS_COLOR, values: series.map((point) => point.visitors) },
          { label: "Page views", color: VIEWS_COLOR, values: series.map((point) => point.views) },
        ]}
      />
      <FiguresTable
        id="series-table"
        caption={`Visitors and page views by ${BUCKET_NAMES[granularity].toLowerCase()}`}
        tall={series.length > 12}
        columns={[BUCKET_NAMES[granularity], "Visitors", "Page views"]}
      >
        {series.map((point, index) => (
          <tr key={point.bucket}>
            <th scope="row" className={`${CELL} font-normal`}>
              {labels[index]}
            </th>
            <td className={NUMBER_CELL}>{formatCount(point.visitors)}</td>
            <td className={NUMBER_CELL}>{formatCount(point.views)}</td>
          </tr>
        ))}
      </FiguresTable>
    </Panel>
  );
}

/** New subscribers or followers over the range: a chart, and a table of the buckets that had any. */
export function CountSection({
  id,
  title,
  noun,
  points,
  granularity,
}: {
  id: string;
  title: string;
  noun: string;
  points: CountPoint[];
  granularity: Granularity;
}) {
  const total = points.reduce((sum, point) => sum + point.count, 0);
  const labels = points.map((point) => bucketLabel(point.bucket, granularity));
  return (
    <Panel id={`${id}-heading`} title={title}>
      {total === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No new {noun} in this range.</p>
      ) : (
        <>
          <AnalyticsChart
            tableId={`${id}-table`}
            labels={labels}
            lines={[{ label: `New ${noun}`, color: COUNT_COLOR, values: points.map((point) => point.count) }]}
          />
          <FiguresTable
            id={`${id}-table`}
            caption={`New ${noun} by ${BUCKET_NAMES[granularity].toLowerCase()}`}
            tall={points.filter((point) => point.count > 0).length > 12}
            columns={[BUCKET_NAMES[granularity], `New ${noun}`]}
          >
            {points.map((point, index) =>
              point.count > 0 ? (
                <tr key={point.bucket}>
                  <th scope="row" className={`${CELL} font-normal`}>
                    {labels[index]}
                  </th>
                  <td className={NUMBER_CELL}>{formatCount(point.count)}</td>
                </tr>
              ) : null,
            )}
            <tr className="font-semibold">
              <th scope="row" className={CELL}>
                Total
              </th>
              <td className={NUMBER_CELL}>{formatCount(total)}</td>
            </tr>
          </FiguresTable>
        </>
      )}
    </Panel>
  );
}

/**
 * One ranked list (paths, sources…), ten rows a page, with links to the pages beside; a path
 * with a title in `titles` reads as its title, the path small below it.
 */
export function ReportListPanel({
  list,
  titles,
  pageHref,
}: {
  list: ReportList;
  titles?: Readonly<Record<string, string>>;
  pageHref: (page: number) => string;
}) {
  const meta = REPORT_LISTS.find((item) => item.dimension === list.dimension)!;
  const id = `list-${list.dimension}`;
  return (
    <Panel id={`${id}-heading`} title={meta.title}>
      {list.rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Nothing counted in this range.</p>
      ) : (
        <FiguresTable id={id} caption={`${meta.title}, page ${list.page}`} columns={[meta.column, "Visitors", "Views"]}>
          {list.rows.map((row) => (
            <tr key={row.value}>
              <th scope="row" className={`${CELL} font-normal [overflow-wrap:anywhere]`} title={row.value}>
                {titles?.[row.value] !== undefined ? (
                  <>
                    {titles[row.value]}
                    <span className="block text-xs text-slate-600 dark:text-slate-400">{row.value}</span>
                  </>
                ) : (
                  listValueLabel(list.dimension, row.value)
                )}
              </th>
              <td className={NUMBER_CELL}>{formatCount(row.visitors)}</td>
              <td className={NUMBER_CELL}>{formatCount(row.views)}</td>
            </tr>
          ))}
        </FiguresTable>
      )}
      {list.page > 1 || (list.hasMore && list.page < REPORT_LIST_PAGES_MAX) ? (
        <nav aria-label={`${meta.title} pages`} className="flex justify-between text-sm">
          {list.page > 1 ? (
            <Link to={pageHref(list.page - 1)} className={textLinkStyles} preventScrollReset>
              Previous
            </Link>
          ) : (
            <span />
          )}
          {list.hasMore && list.page < REPORT_LIST_PAGES_MAX ? (
            <Link to={pageHref(list.page + 1)} className={textLinkStyles} preventScrollReset>
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </Panel>
  );
}

/** Feed readers (Feedly, NetNewsWire…) with the subscribers each stated on its last day in the range. */
export function FeedReadersPanel({ readers }: { readers: FeedReaderRow[] }) {
  return (
    <Panel id="feed-readers-heading" title="Feed readers">
      {readers.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No feed reader fetched a feed in this range.</p>
      ) : (
        <>
          <FiguresTable id="feed-readers" caption="Feed readers" columns={["Reader", "Subscribers", "Fetchers"]}>
            {readers.map((reader) => (
              <tr key={reader.fetcher}>
                <th scope="row" className={`${CELL} font-normal`}>
                  {reader.fetcher === "other" ? "Other readers" : reader.fetcher}
                </th>
                <td className={NUMBER_CELL}>{formatCount(reader.subscribers)}</td>
                <td className={NUMBER_CELL}>{formatCount(reader.fetchers)}</td>
              </tr>
            ))}
          </FiguresTable>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Subscribers as each reader states them on the last day it fetched a feed in this range; one for each fetcher
            that states none.
          </p>
        </>
      )}
    </Panel>
  );
}
