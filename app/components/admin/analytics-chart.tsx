import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import { useHydrated } from "~/lib/use-hydrated";

export interface ChartLine {
  label: string;
  values: number[];
  /** A CSS color; the legend's swatch uses the same. */
  color: string;
}

interface AnalyticsChartProps {
  /** The x axis's labels, one per point. */
  labels: string[];
  lines: ChartLine[];
  /** The table that holds the same figures: the chart is only a picture of it. */
  tableId: string;
}

const HEIGHT = 220;

/**
 * uPlot's own stylesheet is not imported (the stylesheet is inlined, docs/conventions.md); these
 * are the few of its rules the chart needs with legend, cursor and selection turned off.
 */
const UPLOT_RULES =
  "[&_.u-wrap]:relative [&_.u-over]:absolute [&_.u-under]:absolute [&_.u-under]:overflow-hidden [&_.u-axis]:absolute [&_canvas]:block [&_canvas]:h-full [&_canvas]:w-full";

/**
 * A line chart drawn in the browser once the page has loaded (uPlot is fetched then, by this
 * admin page alone). Screen readers skip it for the table named by `tableId`; without JavaScript
 * the table is all there is.
 */
export function AnalyticsChart({ labels, lines, tableId }: AnalyticsChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const key = JSON.stringify({ labels, lines });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      // The page's text color, so the axes follow the light or dark theme.
      const ink = getComputedStyle(element).color;
      const grid = { stroke: "rgba(148, 163, 184, 0.25)", width: 1 };
      chart = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          legend: { show: false },
          cursor: { show: false },
          select: { show: false, left: 0, top: 0, width: 0, height: 0 },
          scales: { x: { time: false } },
          axes: [
            {
              stroke: ink,
              grid,
              ticks: grid,
              values: (_plot, splits) => splits.map((split) => (Number.isInteger(split) ? (labels[split] ?? "") : "")),
            },
            {
              stroke: ink,
              grid,
              ticks: grid,
              values: (_plot, splits) => splits.map((split) => (Number.isInteger(split) ? String(split) : "")),
            },
          ],
          series: [
            {},
            ...lines.map((line) => ({
              label: line.label,
              stroke: line.color,
              width: 2,
              points: { show: labels.length <= 31 },
            })),
          ],
        },
        [labels.map((_, index) => index), ...lines.map((line) => line.values)],
        element,
      );
      observer = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: HEIGHT }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
    // The figures, not the arrays' identity, decide when to draw again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, hydrated]);

  // Without JavaScript there is nothing to draw: the table stands alone.
  if (!hydrated) return null;
  return (
    <div>
      <ul className="flex flex-wrap gap-4 text-sm" aria-hidden="true">
        {lines.map((line) => (
          <li key={line.label} className="flex items-center gap-2">
            <span className="inline-block h-1 w-5 rounded" style={{ backgroundColor: line.color }} />
            {line.label}
          </li>
        ))}
      </ul>
      <div
        ref={box}
        aria-hidden="true"
        data-chart-for={tableId}
        className={`mt-2 min-h-[220px] w-full text-slate-600 dark:text-slate-400 ${UPLOT_RULES}`}
      />
    </div>
  );
}
