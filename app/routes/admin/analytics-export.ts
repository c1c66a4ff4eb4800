import { requireAdmin } from "~/lib/auth.server";
import { textDownload } from "~/lib/download.server";
import { readDayRange } from "#domain/analytics-ranges.ts";
import { queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/analytics-export";

/**
 * Views and visitors per path as CSV (path, views, visitors) for `?from=YYYY-MM-DD&to=YYYY-MM-DD`
 * in the site's days; today when neither is given.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin({ request, context });
  const { services, site } = context.get(appContext);
  const url = new URL(request.url);
  const today = services.analyticsReports.today(site.timeZone);
  const from = queryText(url, "from");
  const to = queryText(url, "to");
  const range = from || to ? readDayRange(from, to) : readDayRange(today, today);
  if (!range.ok) {
    throw new Response(range.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const { from: start, to: end } = range.value;
  return textDownload(services.analyticsReports.exportCsv(range.value), {
    contentType: "text/csv; charset=utf-8",
    filename: start === end ? `analytics-${start}.csv` : `analytics-${start}-to-${end}.csv`,
  });
}
