import { appContext } from "#server/request-context.ts";
import { cacheableResponse } from "#server/feeds/index.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { FeedFormat } from "#domain/site-urls.ts";
import { categoryFromRouteValue } from "#domain/categories.ts";
import type { Route } from "./+types/feed";

const FORMAT_BY_FILE: Record<string, FeedFormat> = { "rss.xml": "rss", "atom.xml": "atom", "feed.json": "json" };

/** One module for /rss.xml, /atom.xml, /feed.json and the same three under /category/{c}/. */
export const loader = withRouteErrors({}, async ({ request, params, context }: Route.LoaderArgs) => {
  const { services, site } = context.get(appContext);
  const format = FORMAT_BY_FILE[new URL(request.url).pathname.split("/").at(-1) ?? ""] ?? "rss";
  let category;
  if (params.category !== undefined) {
    category = categoryFromRouteValue(params.category);
    if (!category) throw new Response("Category not found", { status: 404 });
  }
  const { body, contentType, lastModified } = await services.feeds.feed(format, site, category);
  return cacheableResponse(request, body, { contentType, lastModified });
});
