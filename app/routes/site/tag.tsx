import { data, isRouteErrorResponse } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { Pagination } from "~/components/site/pagination";
import { PostCard } from "~/components/site/post-card";
import { appContext } from "#server/request-context.ts";
import { errorMeta, scopedFeedLinks, seoMeta, siteNameFrom, withSite } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { openPageInfo, requestedPage, requireExistingOpenPage } from "~/lib/pagination.server";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { POST_LIMITS } from "#domain/post.ts";
import { tagPath } from "#domain/site-urls.ts";
import { staticPage } from "~/lib/static-page";
import NotFound from "./not-found";
import type { Route } from "./+types/tag";

/** docs/spec.md §2: an address that names nothing is the 404 page. */
const notFound = () => data<RouteErrorData>({ message: "Page Not Found" }, { status: 404 });

/** /tag/{tag}: the public posts with the tag, in any case, newest first (docs/decisions/0022). */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ params, context, request }: Route.LoaderArgs) => {
    if (params.tag.trim() === "" || params.tag.length > POST_LIMITS.tag) throw notFound();
    const { services, site, tagPage } = context.get(appContext);
    const page = requireExistingOpenPage(
      await services.posts.listTagPosts(params.tag, requestedPage(request), site.postsPerPage),
    );
    if (page.tag === undefined) throw notFound();
    tagPage(["lists"]);
    return { tag: page.tag, posts: page.items.map(toPostCardData), page: openPageInfo(page) };
  },
);

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) =>
  error || !loaderData
    ? errorMeta(error)
    : [
        ...seoMeta({
          title: `#${loaderData.tag}`,
          description: `Posts tagged ${loaderData.tag}.`,
          matches,
          location,
          breadcrumbs: [{ name: `#${loaderData.tag}`, path: tagPath(loaderData.tag) }],
        }),
        ...scopedFeedLinks(siteNameFrom(matches), `#${loaderData.tag}`, tagPath(loaderData.tag)),
      ],
);

export default function Tag({ loaderData }: Route.ComponentProps) {
  const { tag, posts, page } = loaderData;
  return (
    <div className="space-y-8">
      <header>
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Tag</p>
        <h1 className="mt-1 font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">#{tag}</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Posts tagged {tag}.{" "}
          <a href={`${tagPath(tag)}/rss.xml`} className="text-indigo-700 underline dark:text-indigo-300">
            Follow this tag (RSS)
          </a>
        </p>
      </header>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {posts.map((post, index) => (
          <PostCard key={post.id} post={post} headingLevel={2} priority={index === 0} />
        ))}
      </div>
      <Pagination page={page} label="Posts" />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <ErrorPanel error={error} back={{ to: "/blog", label: "Back to all posts" }} />;
}
