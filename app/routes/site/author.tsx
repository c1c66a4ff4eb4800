import { data, isRouteErrorResponse } from "react-router";
import { AuthorAvatar } from "~/components/site/author-box";
import { ErrorPanel } from "~/components/site/error-panel";
import { Pagination } from "~/components/site/pagination";
import { PostCard } from "~/components/site/post-card";
import { appContext } from "#server/request-context.ts";
import { errorMeta, scopedFeedLinks, seoMeta, siteNameFrom, withSite } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { openPageInfo, requestedPage, requireExistingOpenPage } from "~/lib/pagination.server";
import { type RouteErrorData, withRouteErrors } from "~/lib/route-errors.server";
import { mediaUrl } from "#domain/media.ts";
import { authorPath } from "#domain/site-urls.ts";
import { staticPage } from "~/lib/static-page";
import NotFound from "./not-found";
import type { Route } from "./+types/author";

/** /author/{slug}: who the author is, and their public posts, newest first (docs/decisions/0022). */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ params, context, request }: Route.LoaderArgs) => {
    const { services, site, tagPage } = context.get(appContext);
    const pageNumber = requestedPage(request);
    const author = await services.users.findAuthor(params.slug);
    // docs/spec.md §2: an address that names nothing is the 404 page.
    if (!author) throw data<RouteErrorData>({ message: "Page Not Found" }, { status: 404 });
    const page = requireExistingOpenPage(
      await services.posts.listAuthorPosts(author.name, pageNumber, site.postsPerPage),
    );
    tagPage(["lists"]);
    return { author, posts: page.items.map(toPostCardData), page: openPageInfo(page) };
  },
);

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) => {
  if (error || !loaderData) return errorMeta(error);
  const { author } = loaderData;
  return [
    ...seoMeta({
      title: author.name,
      description: author.bio || `Posts by ${author.name}.`,
      matches,
      location,
      image: author.avatar ? mediaUrl(author.avatar, 192, "png") : undefined,
      breadcrumbs: [{ name: author.name, path: authorPath(author.slug) }],
    }),
    ...scopedFeedLinks(siteNameFrom(matches), author.name, authorPath(author.slug)),
  ];
});

export default function Author({ loaderData }: Route.ComponentProps) {
  const { author, posts, page } = loaderData;
  return (
    <div className="space-y-8">
      <header className="flex flex-col items-center gap-4 text-center" data-author-header>
        <AuthorAvatar author={author} size={96} />
        <div>
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Author</p>
          <h1 className="mt-1 font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">
            {author.name}
          </h1>
        </div>
        {author.bio ? (
          <p className="max-w-2xl whitespace-pre-line text-slate-700 dark:text-slate-300">{author.bio}</p>
        ) : null}
        <a href={`${authorPath(author.slug)}/rss.xml`} className="text-indigo-700 underline dark:text-indigo-300">
          Follow {author.name} (RSS)
        </a>
      </header>
      {posts.length === 0 ? (
        <p className="text-center text-lg text-slate-800 dark:text-slate-200">No posts published yet.</p>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post, index) => (
            <PostCard key={post.id} post={post} headingLevel={2} priority={index === 0} />
          ))}
        </div>
      )}
      <Pagination page={page} label="Posts" />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <ErrorPanel error={error} back={{ to: "/blog", label: "Back to all posts" }} />;
}
