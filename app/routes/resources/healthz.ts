import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/healthz";

/** For load balancers and uptime checks: 200 when the database answers, 503 when it does not. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, logger } = context.get(appContext);
  const headers = { "Cache-Control": "no-store" };
  // Any failure at all, not only a domain error, is what this check reports: 503 and a log line.
  try {
    await services.health.check();
    return Response.json({ status: "ok" }, { headers });
  } catch (error) {
    logger.error({ err: error }, "health check failed");
    return Response.json({ status: "unavailable" }, { status: 503, headers });
  }
}
