import { requireOwner } from "~/lib/auth.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/export";

/** The export, streamed as the database is read, so a large blog never sits in memory. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  const rows = context.get(appContext).services.portability.exportBlog();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="inkwell-export-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
