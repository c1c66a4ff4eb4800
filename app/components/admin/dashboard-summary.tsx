import { Link } from "react-router";
import { DASHBOARD_DAYS, type DashboardSummary } from "#domain/dashboard.ts";

interface Figure {
  value: number;
  label: string;
  to: string;
}

const numbers = new Intl.NumberFormat("en");

function figuresOf(summary: DashboardSummary): Figure[] {
  const figures: Figure[] = [
    { value: summary.drafts, label: summary.drafts === 1 ? "Draft" : "Drafts", to: "/admin/posts?status=draft" },
    { value: summary.scheduled, label: "Scheduled", to: "/admin/posts?status=scheduled" },
    {
      value: summary.pendingComments,
      label: summary.pendingComments === 1 ? "Comment waiting" : "Comments waiting",
      to: "/admin/comments?status=pending",
    },
    { value: summary.views, label: summary.views === 1 ? "View" : "Views", to: "/admin/analytics?range=7d" },
    {
      value: summary.visitors,
      label: summary.visitors === 1 ? "Visitor" : "Visitors",
      to: "/admin/analytics?range=7d",
    },
  ];
  if (summary.newSubscribers !== undefined) {
    const label = summary.newSubscribers === 1 ? "New subscriber" : "New subscribers";
    figures.push({ value: summary.newSubscribers, label, to: "/admin/subscribers" });
  }
  if (summary.newFollowers !== undefined) {
    const label = summary.newFollowers === 1 ? "New follower" : "New followers";
    figures.push({ value: summary.newFollowers, label, to: "/admin/fediverse" });
  }
  return figures;
}

/** The Dashboard's figures above its posts list, each a link to the screen that holds them. */
export function DashboardSummaryPanel({ summary }: { summary: DashboardSummary }) {
  return (
    <section aria-labelledby="dashboard-summary" className="mt-6">
      <h2 id="dashboard-summary" className="text-sm font-semibold text-slate-600 dark:text-slate-400">
        At a glance <span className="font-normal">(views, visitors and new ones: last {DASHBOARD_DAYS} days)</span>
      </h2>
      <ul className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7">
        {figuresOf(summary).map((figure) => (
          <li key={figure.label}>
            <Link
              to={figure.to}
              className="flex h-full min-h-11 flex-col rounded-md border border-slate-200 bg-white px-3 py-2 hover:border-indigo-400 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500"
            >
              <span className="text-xl font-bold tabular-nums">{numbers.format(figure.value)}</span>
              <span className="text-xs text-slate-600 dark:text-slate-400">{figure.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
