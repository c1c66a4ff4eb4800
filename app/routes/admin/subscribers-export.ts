import { requireOwner } from "~/lib/auth.server";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribers-export";

/** Every subscriber as CSV (email, state, created_at, confirmed_at), streamed as the database is read. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireOwner({ request, context });
  const lines = context.get(appContext).services.subscribers.exportCsv();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
