import { redirect } from "react-router";
import { appContext } from "~/context";
import type { Route } from "./+types/logout";

/** Signing out changes state, so only a (same-site, see server/http.ts) POST does it; a GET just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, sessionCookie, logger } = context.get(appContext);
  const token: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  if (typeof token === "string") {
    try {
      await services.auth.signOut(token);
    } catch (error) {
      // The cookie still goes; the session row then lapses at its idle limit.
      logger.error({ err: error }, "sign-out failed");
    }
  }
  return redirect("/", { headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) } });
}
