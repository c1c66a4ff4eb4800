import { requireOwner } from "~/lib/auth.server";
import { downloadDay, textDownload } from "~/lib/download.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/export";

/** The export, streamed as the database is read, so a large blog never sits in memory. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  return textDownload(context.get(appContext).services.portability.exportBlog(), {
    contentType: "application/json; charset=utf-8",
    filename: `inkwell-export-${downloadDay()}.json`,
  });
}
