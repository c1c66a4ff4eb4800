import { Link } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { ArrowRightIcon } from "~/components/ui/icons";
import { appContext } from "#server/request-context.ts";
import { categoryPath } from "#domain/categories.ts";
import { pluralise, truncate } from "~/lib/format";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/categories";
import { staticPage } from "~/lib/static-page";

/** docs/spec.md §9: a category card shows the first 80 characters of its newest post's excerpt. */
const CATEGORY_EXCERPT_LENGTH = 80;

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load categories. Please try again." },
  async ({ context }: Route.LoaderArgs) => {
    const { services, tagPage } = context.get(appContext);
    const categories = await services.posts.summariseCategories();
    tagPage(["lists"]);
    return { categories };
  },
);

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ error, matches, location }) =>
  error
    ? errorMeta(error)
    : seoMeta({
        title: "Categories",
        description: "Every category on the blog, with how many posts each holds.",
        matches,
        location,
      }),
);

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { categories } = loaderData;
  return (
    <div className="space-y-8">
      <header>
        <h1 className="font-serif text-3xl font-bold text-slate-900 sm:text-4xl dark:text-white">Categories</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">Pick a topic to see every post written about it.</p>
      </header>
      {categories.length === 0 ? (
        <p className="text-lg text-slate-800 dark:text-slate-200">No categories yet: nothing has been published.</p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map(({ category, postCount, firstExcerpt }) => (
            <li key={category}>
              <article className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <h2 className="text-xl font-bold text-slate-900 dark:text-white">
                  <Link to={categoryPath(category)} className="hover:underline hover:underline-offset-4">
                    {category}
                  </Link>
                </h2>
                <p className="mt-1 text-sm font-medium text-indigo-700 dark:text-indigo-300">
                  {pluralise(postCount, "post")}
                </p>
                <p className="mt-3 flex-1 text-slate-700 dark:text-slate-300">
                  {truncate(firstExcerpt, CATEGORY_EXCERPT_LENGTH)}
                </p>
                <Link
                  to={categoryPath(category)}
                  aria-label={`Browse ${category}`}
                  className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  Browse
                  <ArrowRightIcon className="size-4" />
                </Link>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
