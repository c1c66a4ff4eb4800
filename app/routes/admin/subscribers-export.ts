import { requireOwner } from "~/lib/auth.server";
import { downloadDay, textDownload } from "~/lib/download.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-export";

/** Every subscriber as CSV (email, state, created_at, confirmed_at), streamed as the database is read. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  return textDownload(context.get(appContext).services.subscribers.exportCsv(), {
    contentType: "text/csv; charset=utf-8",
    filename: `subscribers-${downloadDay()}.csv`,
  });
}
