import { appContext } from "#server/request-context.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import {
  countPageSitemaps,
  pageSitemapNumber,
  postSitemapCount,
  readPageSitemap,
  renderPagesSitemap,
  renderSitemapIndex,
  SITEMAP_MAX_URLS,
  streamPostsSitemap,
} from "#server/feeds/index.ts";
import type { Route } from "./+types/sitemap";

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" };

const notFound = () => new Response("Sitemap not found", { status: 404 });

/** /sitemap.xml (the index), /sitemaps/pages.xml (then pages-{n}.xml) and /sitemaps/posts-{n}.xml. */
export const loader = withRouteErrors({}, async ({ request, params, context }: Route.LoaderArgs) => {
  const { services, site } = context.get(appContext);
  const file = params.file ?? new URL(request.url).pathname.slice(1);
  const listPages = (afterSlug: string, limit: number) => services.pages.listSitemapPages(afterSlug, limit);
  if (file === "sitemap.xml") {
    const [count, pageSitemaps] = await Promise.all([
      services.posts.countPublishedPosts(),
      countPageSitemaps(listPages),
    ]);
    return new Response(renderSitemapIndex(site.siteUrl, count, pageSitemaps), { headers: XML_HEADERS });
  }
  const pageSitemap = pageSitemapNumber(file);
  if (pageSitemap !== undefined) {
    const pages = await readPageSitemap(listPages, pageSitemap);
    if (!pages) throw notFound();
    const updates = pageSitemap === 1 ? await services.posts.listCategoryUpdates() : null;
    return new Response(renderPagesSitemap(site.siteUrl, pages, updates), { headers: XML_HEADERS });
  }
  const page = Number(/^posts-([1-9]\d{0,6})\.xml$/.exec(file)?.[1]);
  // Counting first settles both "no such page" and "database down" (a 503) before the stream starts.
  if (!page || page > postSitemapCount(await services.posts.countPublishedPosts())) throw notFound();
  const addresses = services.posts.streamPublishedPostAddresses((page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
  return new Response(streamPostsSitemap(site.siteUrl, addresses), { headers: XML_HEADERS });
});
