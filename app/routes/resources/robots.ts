import { appContext } from "#server/request-context.ts";
import { absoluteUrl } from "~/lib/site-urls";
import type { Route } from "./+types/robots";

/** Crawlers may read the public site; the admin area and sign-in are no business of theirs. */
export function loader({ context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(appContext).site;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /login",
    "Disallow: /setup",
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
