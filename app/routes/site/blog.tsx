import { Link } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { PostCard } from "~/components/site/post-card";
import { SearchForm } from "~/components/site/search-form";
import { textLinkStyles } from "~/components/ui/styles";
import { appContext } from "~/context";
import { errorMeta, pageMeta } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { throwAsRouteError } from "~/lib/route-errors.server";
import { normaliseSearchQuery, searchResultsLabel } from "~/lib/search";
import type { Route } from "./+types/blog";

// One module serves /blog and /search (route ids "blog" and "search"): the same list, filtered when q is set.
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = normaliseSearchQuery(new URL(request.url).searchParams.get("q"));
  try {
    const posts = await context.get(appContext).services.posts.listPublishedPosts(query || undefined);
    return { query, posts: posts.map(toPostCardData) };
  } catch (error) {
    throwAsRouteError(error, context, { READ_FAILED: "Failed to load posts. Please try again." });
  }
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  if (error || !loaderData) return errorMeta(error);
  return loaderData.query
    ? pageMeta(`Search Results for "${loaderData.query}"`, `Posts matching "${loaderData.query}".`)
    : pageMeta("All Blog Posts", "Every published post, newest first.");
};

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { query, posts } = loaderData;
  return (
    <div className="space-y-8">
      <header className="space-y-4">
        <h1 className="font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">
          {query ? "Search Results" : "All Blog Posts"}
        </h1>
        <SearchForm id="page-search" label="Search posts" defaultValue={query} className="max-w-xl" />
        {query ? (
          <p role="status" className="text-slate-700 dark:text-slate-300">
            {searchResultsLabel(posts.length, query)}
          </p>
        ) : null}
      </header>

      {posts.length > 0 ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} headingLevel={2} />
          ))}
        </div>
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
