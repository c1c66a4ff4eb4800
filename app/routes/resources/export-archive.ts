import { Readable } from "node:stream";
import { requireOwner } from "~/lib/auth.server";
import { downloadDay } from "~/lib/download.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/export-archive";

/** The export with every uploaded image, as a zip streamed while the database is read. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  const archive = context.get(appContext).services.portability.exportArchive();
  return new Response(Readable.toWeb(archive) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="inkwell-export-${downloadDay()}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}
