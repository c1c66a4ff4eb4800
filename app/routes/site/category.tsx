import { Form, redirect, type ShouldRevalidateFunctionArgs, useSearchParams } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { Pagination } from "~/components/site/pagination";
import { PostCard } from "~/components/site/post-card";
import { GridIcon, ListIcon } from "~/components/ui/icons";
import { appContext } from "#server/request-context.ts";
import { categoryCrumbs, errorMeta, feedLinks, seoMeta, siteNameFrom, withSite } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { pageInfo, requestedPage, requireExistingPage } from "~/lib/pagination.server";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/category";
import { staticPage } from "~/lib/static-page";

type View = "grid" | "list";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again.", CATEGORY_NOT_FOUND: "Category not found" },
  async ({ params, context, request }: Route.LoaderArgs) => {
    const { services, site, tagPage } = context.get(appContext);
    const found = await services.categories.atAddress(params.category);
    // An address the category had before a rename answers at its new one for good (docs/decisions/0020).
    if (found.movedTo !== undefined) throw redirect(`${found.movedTo}${new URL(request.url).search}`, 301);
    const { name: category, description } = found.category;
    const page = await services.posts.listCategoryPosts(category, requestedPage(request), site.postsPerPage);
    requireExistingPage(page);
    tagPage(["lists"]);
    return { category, description, posts: page.items.map(toPostCardData), page: pageInfo(page) };
  },
);

/** Switching between grid and list only changes ?view=, which the loader does not read. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname === nextUrl.pathname &&
    currentUrl.searchParams.get("view") !== nextUrl.searchParams.get("view")
    ? false
    : defaultShouldRevalidate;
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) =>
  error || !loaderData
    ? errorMeta(error)
    : [
        ...seoMeta({
          title: loaderData.category,
          description: loaderData.description || `Published posts in the ${loaderData.category} category of Inkwell.`,
          matches,
          location,
          breadcrumbs: categoryCrumbs(loaderData.category),
        }),
        ...feedLinks(siteNameFrom(matches), loaderData.category).map((link) => ({ tagName: "link" as const, ...link })),
      ],
);

const toggleStyles =
  "inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-white aria-pressed:bg-white aria-pressed:text-slate-900 aria-pressed:shadow-sm dark:text-slate-300 dark:hover:bg-slate-700 dark:aria-pressed:bg-slate-700 dark:aria-pressed:text-white";

/** A GET form: without JavaScript each button reloads with ?view=; with it, the router swaps the view in place. */
function ViewToggle({ view }: { view: View }) {
  return (
    <Form method="get" replace preventScrollReset>
      <div role="group" aria-label="Layout" className="inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        <button type="submit" name="view" value="grid" aria-pressed={view === "grid"} className={toggleStyles}>
          <GridIcon className="size-4" />
          Grid
        </button>
        <button type="submit" name="view" value="list" aria-pressed={view === "list"} className={toggleStyles}>
          <ListIcon className="size-4" />
          List
        </button>
      </div>
    </Form>
  );
}

export default function Category({ loaderData }: Route.ComponentProps) {
  const { category, description, posts, page } = loaderData;
  const [searchParams] = useSearchParams();
  const view: View = searchParams.get("view") === "list" ? "list" : "grid";
  return (
    <div className="h-feed space-y-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Category</p>
          <h1 className="p-name mt-1 font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">
            {category}
          </h1>
          {description ? <p className="mt-2 max-w-2xl text-slate-800 dark:text-slate-200">{description}</p> : null}
          <p className="mt-2 text-slate-700 dark:text-slate-300">{`${page.total} post(s) in this category`}</p>
        </div>
        {posts.length > 0 ? <ViewToggle view={view} /> : null}
      </header>
      {posts.length === 0 ? (
        <p className="text-lg text-slate-800 dark:text-slate-200">No posts available in this category.</p>
      ) : (
        <div
          data-view={view}
          className={view === "list" ? "flex flex-col gap-6" : "grid gap-6 sm:grid-cols-2 lg:grid-cols-3"}
        >
          {posts.map((post, index) => (
            <PostCard
              key={post.id}
              post={post}
              variant={view === "list" ? "list" : "standard"}
              headingLevel={2}
              priority={index === 0}
            />
          ))}
        </div>
      )}
      <Pagination page={page} label="Posts" />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/categories", label: "All categories" }} />;
}
