import { appContext } from "#server/request-context.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/sitemap";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" };

/** /sitemap.xml (the index), /sitemaps/pages.xml (then pages-{n}.xml) and /sitemaps/posts-{n}.xml. */
export const loader = withRouteErrors({}, async ({ request, params, context }: Route.LoaderArgs) => {
  const { services, site } = context.get(appContext);
  const file = params.file ?? new URL(request.url).pathname.slice(1);
  const body = await services.feeds.sitemap(site.siteUrl, file);
  if (body === undefined) throw new Response("Sitemap not found", { status: 404 });
  return new Response(body, { headers: XML_HEADERS });
});
