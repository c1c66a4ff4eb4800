import { Link } from "react-router";
import type { Figures } from "#domain/analytics-report.ts";
import { formatCount } from "./analytics-format";

/** The editor's line on a published post's readers over the last 30 days, linking to the full screen. */
export function PostViews({ views }: { views: Figures }) {
  return (
    <Link to="/admin/analytics?range=30d" className="text-sm text-slate-600 hover:underline dark:text-slate-400">
      {formatCount(views.views)} {views.views === 1 ? "view" : "views"} by {formatCount(views.visitors)}{" "}
      {views.visitors === 1 ? "visitor" : "visitors"} in the last 30 days
    </Link>
  );
}
