import { redirect } from "react-router";
import { isDomainError } from "#domain/errors.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/logout";

/** Signing out changes state, so only a (same-site, see server/kernel/http-request-checks.ts) POST does it; a GET just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, sessionCookie, recordFailure } = context.get(appContext);
  const token = await sessionCookie.read(request);
  if (token) {
    // Not a refusal but carrying on: while the database is down the cookie still goes, and the
    // session row lapses at its idle limit.
    try {
      await services.auth.signOut(token);
    } catch (error) {
      if (!isDomainError(error, "DATABASE_UNAVAILABLE")) throw error;
      recordFailure(error.cause ?? error);
    }
  }
  return redirect("/", { headers: { "Set-Cookie": await sessionCookie.clear() } });
}
