import { Form, Link } from "react-router";
import { ANALYTICS_RANGE_KEYS, ANALYTICS_RANGE_LABELS, type AnalyticsRange } from "#domain/analytics-ranges.ts";
import { buttonStyles, inputStyles, labelStyles } from "~/components/ui/styles";

const PRESETS = ANALYTICS_RANGE_KEYS.filter((key) => key !== "custom");

/** The presets as links, and a from–to form (a GET, so it works without JavaScript). */
export function AnalyticsRangePicker({ range, today }: { range: AnalyticsRange; today: string }) {
  return (
    <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
      <nav aria-label="Range">
        <ul className="flex flex-wrap gap-1 rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-800 dark:bg-slate-900">
          {PRESETS.map((key) => (
            <li key={key}>
              <Link
                to={key === "today" ? "/admin/analytics" : `/admin/analytics?range=${key}`}
                aria-current={range.key === key ? "page" : undefined}
                className={`block rounded-md px-3 py-1.5 text-sm font-medium ${
                  range.key === key
                    ? "bg-indigo-600 text-white"
                    : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                }`}
              >
                {ANALYTICS_RANGE_LABELS[key]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" action="/admin/analytics" className="flex flex-wrap items-end gap-2" aria-label="Custom range">
        <div>
          <label htmlFor="range-from" className={labelStyles}>
            From
          </label>
          <input
            id="range-from"
            type="date"
            name="from"
            required
            max={today}
            defaultValue={range.from}
            className={`${inputStyles} py-1.5`}
          />
        </div>
        <div>
          <label htmlFor="range-to" className={labelStyles}>
            To
          </label>
          <input
            id="range-to"
            type="date"
            name="to"
            required
            max={today}
            defaultValue={range.to}
            className={`${inputStyles} py-1.5`}
          />
        </div>
        <button type="submit" className={buttonStyles.secondary}>
          Show range
        </button>
      </Form>
    </div>
  );
}
