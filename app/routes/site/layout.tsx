import { Outlet, useRouteLoaderData } from "react-router";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import type { loader as rootLoader } from "~/root";
import { isDomainError } from "#domain/errors.ts";
import { fediverseHandle } from "#domain/fediverse.ts";
import { appContext } from "#server/request-context.ts";
import type { SiteNavigationLinks } from "#server/site/index.ts";
import type { Route } from "./+types/layout";

/**
 * Every cached reader's page shows the menus, which link to pages by id: a page's new slug or
 * unpublishing ("navigation", server/kernel/content-changes.ts) must drop it. Only pages that
 * tag themselves are cached, so the tag rides on theirs rather than being added here on its own,
 * which would make every page below (sign-in, unsubscribe links) cacheable.
 */
const tagPagesWithNavigation: Route.MiddlewareFunction = async ({ context }) => {
  const app = context.get(appContext);
  const tagPage = app.tagPage;
  context.set(appContext, {
    ...app,
    tagPage: (tags) => tagPage(tags.length > 0 ? [...tags, "navigation"] : tags),
  });
};

export const middleware: Route.MiddlewareFunction[] = [tagPagesWithNavigation];

/**
 * The footer's "Follow @blog@host" (a setting, Admin → Fediverse, read through its cache)
 * and both menus, their page links at the pages' current slugs.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, site, recordFailure } = context.get(appContext);
  // Readers still get the page while the database is down: without the line, and without
  // links to pages, whose addresses are unknown then. Anything else is a bug.
  const outage = <T,>(fallback: T) => {
    return (error: unknown): T => {
      if (!isDomainError(error, "DATABASE_UNAVAILABLE")) throw error;
      recordFailure(error.cause ?? error);
      return fallback;
    };
  };
  const [handle, navigation] = await Promise.all([
    services.fediverse
      .settings()
      .then((settings) => fediverseHandle(settings.handle, site.siteUrl), outage<string | undefined>(undefined)),
    services.navigation.links(site).catch(outage<SiteNavigationLinks>(services.navigation.offlineLinks(site))),
  ]);
  return { fediverseHandle: handle, navigation };
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const site = rootData?.site;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-indigo-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 dark:bg-slate-900 dark:text-indigo-200"
      >
        Skip to main content
      </a>
      <SiteHeader signedIn={Boolean(rootData?.user)} links={loaderData.navigation.header} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:py-12">
        <Outlet />
      </main>
      <SiteFooter
        sourceUrl={site?.sourceUrl ?? "/"}
        fediverseHandle={loaderData.fediverseHandle}
        links={loaderData.navigation.footer}
      />
    </div>
  );
}
