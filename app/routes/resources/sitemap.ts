import { appContext } from "#server/request-context.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import {
  postSitemapCount,
  renderPagesSitemap,
  renderSitemapIndex,
  SITEMAP_MAX_URLS,
  streamPostsSitemap,
} from "~/lib/sitemap.server";
import type { Route } from "./+types/sitemap";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" };

/** /sitemap.xml (the index), /sitemaps/pages.xml and /sitemaps/posts-{n}.xml. */
export const loader = withRouteErrors({}, async ({ request, params, context }: Route.LoaderArgs) => {
  const { services, site } = context.get(appContext);
  const file = params.file ?? new URL(request.url).pathname.slice(1);
  if (file === "sitemap.xml") {
    const count = await services.posts.countPublishedPosts();
    return new Response(renderSitemapIndex(site.siteUrl, count), { headers: XML_HEADERS });
  }
  if (file === "pages.xml") {
    const updates = await services.posts.listCategoryUpdates();
    return new Response(renderPagesSitemap(site.siteUrl, updates), { headers: XML_HEADERS });
  }
  const page = Number(/^posts-([1-9]\d{0,6})\.xml$/.exec(file)?.[1]);
  // Counting first settles both "no such page" and "database down" (a 503) before the stream starts.
  if (!page || page > postSitemapCount(await services.posts.countPublishedPosts())) {
    throw new Response("Sitemap not found", { status: 404 });
  }
  const addresses = services.posts.streamPublishedPostAddresses((page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
  return new Response(streamPostsSitemap(site.siteUrl, addresses), { headers: XML_HEADERS });
});
