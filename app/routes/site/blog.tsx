import { queryText } from "#domain/forms.ts";
import { Link } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { Pagination } from "~/components/site/pagination";
import { PostCard } from "~/components/site/post-card";
import { SearchForm } from "~/components/site/search-form";
import { textLinkStyles } from "~/components/ui/styles";
import { appContext } from "#server/request-context.ts";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import { normaliseSearchQuery, searchResultsLabel } from "~/lib/search";
import type { Route } from "./+types/blog";
import { staticPage } from "~/lib/static-page";

// One module serves /blog and /search (route ids "blog" and "search"): the same list, filtered when q is set.
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const query = normaliseSearchQuery(queryText(new URL(request.url), "q"));
    const { services, site, tagPage } = context.get(appContext);
    const page = await services.posts.listPublishedPosts(query || undefined, requestedPage(request), site.postsPerPage);
    requireExistingPage(page);
    tagPage(["lists"]);
    return { query, posts: page.items.map(toPostCardData), page: pageInfo(page) };
  },
);

export const handle = staticPage;

/** Searches are endless variations of the list: none is indexed. */
export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) => {
  if (error || !loaderData) return errorMeta(error);
  return loaderData.query
    ? seoMeta({
        title: `Search Results for "${loaderData.query}"`,
        description: `Posts matching "${loaderData.query}".`,
        matches,
        location,
        noindex: true,
      })
    : seoMeta({
        title: location.pathname === "/search" ? "Search" : "All Blog Posts",
        description: "Every published post on Inkwell, newest first.",
        matches,
        location,
        noindex: location.pathname === "/search",
      });
});

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { query, posts, page } = loaderData;
  return (
    <div className="h-feed space-y-8">
      <header className="space-y-4">
        <h1 className="p-name font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">
          {query ? "Search Results" : "All Blog Posts"}
        </h1>
        <SearchForm id="page-search" label="Search posts" defaultValue={query} className="max-w-xl" />
        {query ? (
          <p role="status" className="text-slate-700 dark:text-slate-300">
            {searchResultsLabel(page.total, query)}
          </p>
        ) : null}
      </header>

      {posts.length > 0 ? (
        <>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post, index) => (
              <PostCard key={post.id} post={post} headingLevel={2} priority={index === 0} />
            ))}
          </div>
          <Pagination page={page} label="Posts" />
        </>
      ) : query ? (
        <div className="rounded-2xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700">
          <p className="text-lg text-slate-800 dark:text-slate-200">No posts match your search criteria.</p>
          <Link to="/blog" className={`mt-4 inline-block ${textLinkStyles}`}>
            Clear search and show all posts
          </Link>
        </div>
      ) : (
        <p className="text-lg text-slate-800 dark:text-slate-200">No blog posts available.</p>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
