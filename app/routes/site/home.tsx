import { Link } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { PostCard } from "~/components/site/post-card";
import { logoImage, SITE_ICON_PATHS } from "#domain/site-look.ts";
import { ArrowRightIcon } from "~/components/ui/icons";
import { buttonStyles, textLinkStyles } from "~/components/ui/styles";
import { appContext } from "#server/request-context.ts";
import { categoryPath } from "#domain/categories.ts";
import { errorMeta, seoMeta, SITE_DESCRIPTION, withSite } from "~/lib/meta";
import { toPostCardData } from "~/lib/post-card-data";
import { useSite } from "~/lib/use-site";
import { withRouteErrors } from "~/lib/route-errors.server";
import type { Route } from "./+types/home";
import { staticPage } from "~/lib/static-page";

export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." },
  async ({ context }: Route.LoaderArgs) => {
    const { services, tagPage } = context.get(appContext);
    const [home, hero] = await Promise.all([services.posts.getHomePage(), services.siteSettings.homeHero()]);
    tagPage(["lists"]);
    return {
      hero,
      featured: home.featured ? toPostCardData(home.featured) : null,
      latest: home.latest.map(toPostCardData),
      categories: home.categories.map(({ category, posts }) => ({ category, posts: posts.map(toPostCardData) })),
    };
  },
);

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ error, matches, location, loaderData }) =>
  error
    ? errorMeta(error)
    : seoMeta({
        title: "Home",
        description: SITE_DESCRIPTION,
        matches,
        location,
        image: loaderData?.featured?.coverImage,
      }),
);

function SectionHeading({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="font-serif text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white">
      {children}
    </h2>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { hero, featured, latest, categories } = loaderData;
  const site = useSite();
  // Without a headline the welcome line heads the page, so it still has its one h1.
  const Welcome = hero.headline ? "p" : "h1";
  // The logo, else the site icon's largest square, else none.
  const sitePhoto = logoImage(site.logo)?.src ?? (site.siteIcon ? SITE_ICON_PATHS.manifestLarge.path : undefined);
  return (
    <div className="space-y-16">
      {/* The site's h-card (microformats2): its name, address and picture, as other sites read them. */}
      <section className="h-card rounded-3xl bg-gradient-to-br from-indigo-50 via-white to-sky-50 px-6 py-12 sm:px-12 sm:py-16 dark:from-indigo-950 dark:via-slate-950 dark:to-slate-900">
        <Welcome className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">
          Welcome to <span className="p-name">{site.title}</span>
        </Welcome>
        <data className="u-url" value="/" />
        {sitePhoto ? <data className="u-photo" value={sitePhoto} /> : null}
        {hero.headline ? (
          <h1 className="mt-3 max-w-3xl font-serif text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
            {hero.headline}
          </h1>
        ) : null}
        {hero.introductionHtml ? (
          // Rendered from the writer's Markdown and sanitised on the server (services.siteSettings.homeHero).
          <div
            className="mt-4 max-w-2xl space-y-3 text-lg text-slate-700 dark:text-slate-300 [&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline dark:[&_a]:text-indigo-300"
            dangerouslySetInnerHTML={{ __html: hero.introductionHtml }}
          />
        ) : null}
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/blog" className={buttonStyles.primary}>
            View all posts
            <ArrowRightIcon className="size-4" />
          </Link>
          <Link to="/categories" className={buttonStyles.secondary}>
            Browse categories
          </Link>
        </div>
      </section>

      {featured ? (
        <section aria-labelledby="featured-heading" className="space-y-6">
          <SectionHeading id="featured-heading">Featured Post</SectionHeading>
          <PostCard post={featured} variant="featured" headingLevel={3} priority />
        </section>
      ) : (
        <p className="text-slate-700 dark:text-slate-300">No blog posts available.</p>
      )}

      {latest.length > 0 ? (
        <section aria-labelledby="latest-heading" className="h-feed space-y-6">
          <SectionHeading id="latest-heading">
            <span className="p-name">Latest Posts</span>
          </SectionHeading>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {latest.map((post) => (
              <PostCard key={post.id} post={post} headingLevel={3} />
            ))}
          </div>
        </section>
      ) : null}

      {categories.length > 0 ? (
        <section aria-labelledby="browse-heading" className="space-y-10">
          <SectionHeading id="browse-heading">Browse by Category</SectionHeading>
          {categories.map(({ category, posts }) => {
            const headingId = `category-${category.toLowerCase()}`;
            return (
              <section key={category} aria-labelledby={headingId} className="space-y-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h3 id={headingId} className="text-xl font-bold text-slate-900 dark:text-white">
                    {category}
                  </h3>
                  <Link to={categoryPath(category)} className={textLinkStyles}>
                    More in {category}
                  </Link>
                </div>
                <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                  {posts.map((post) => (
                    <PostCard key={post.id} post={post} variant="compact" headingLevel={4} />
                  ))}
                </div>
              </section>
            );
          })}
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
