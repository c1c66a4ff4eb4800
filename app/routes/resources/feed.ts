import { type AppContext, appContext } from "#server/request-context.ts";
import { cacheableResponse } from "#server/feeds/index.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { FeedFormat } from "#domain/site-urls.ts";
import { redirect } from "react-router";
import { isDomainError } from "#domain/errors.ts";
import { POST_LIMITS } from "#domain/post.ts";
import type { Route } from "./+types/feed";

const FORMAT_BY_FILE: Record<string, FeedFormat> = { "rss.xml": "rss", "atom.xml": "atom", "feed.json": "json" };

/** One module for /rss.xml, /atom.xml, /feed.json and the same three under /category/{c}/, /tag/{t}/ and /author/{a}/. */
export const loader = withRouteErrors({}, async ({ request, params, context }: Route.LoaderArgs) => {
  const { services, site } = context.get(appContext);
  const format = FORMAT_BY_FILE[new URL(request.url).pathname.split("/").at(-1) ?? ""] ?? "rss";
  if ("tag" in params || "slug" in params) {
    const feed = await scopedFeed(context.get(appContext), format, params);
    if (!feed) throw new Response("Not found", { status: 404 });
    return cacheableResponse(request, feed.body, { contentType: feed.contentType, lastModified: feed.lastModified });
  }
  let category;
  if (params.category !== undefined) {
    const found = await services.categories.atAddress(params.category).catch((error: unknown) => {
      if (isDomainError(error, "CATEGORY_NOT_FOUND")) throw new Response("Category not found", { status: 404 });
      throw error;
    });
    // An address the category had before a rename: its feed moved for good (docs/decisions/0020).
    if (found.movedTo !== undefined) {
      throw redirect(`${found.movedTo}/${new URL(request.url).pathname.split("/").at(-1)}`, 301);
    }
    category = found.category;
  }
  const { body, contentType, lastModified } = await services.feeds.feed(format, site, category);
  return cacheableResponse(request, body, { contentType, lastModified });
});

/** A tag's feed (none while no public post has it) or an author's (none for an unknown address). */
async function scopedFeed(
  { services, site }: Pick<AppContext, "services" | "site">,
  format: FeedFormat,
  params: { tag?: string; slug?: string },
) {
  if (params.tag !== undefined) {
    if (params.tag.length > POST_LIMITS.tag) return undefined;
    return services.feeds.scopedFeed(format, site, { tag: params.tag });
  }
  const author = params.slug === undefined ? undefined : await services.users.findAuthor(params.slug);
  return author ? services.feeds.scopedFeed(format, site, { author }) : undefined;
}
