import { Outlet, useRouteLoaderData } from "react-router";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import type { loader as rootLoader } from "~/root";
import { isDomainError } from "#domain/errors.ts";
import { fediverseHandle } from "#domain/fediverse.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/layout";

/** The footer's "Follow @blog@host": the handle is a setting (Admin → Fediverse), read through its cache. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, site, recordFailure } = context.get(appContext);
  try {
    const { handle } = await services.fediverse.settings();
    return { fediverseHandle: fediverseHandle(handle, site.siteUrl) };
  } catch (error) {
    // Readers still get the page, without the line, while the database is down; anything else is a bug.
    if (!isDomainError(error, "DATABASE_UNAVAILABLE")) throw error;
    recordFailure(error.cause ?? error);
    return { fediverseHandle: undefined };
  }
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
      <SiteHeader signedIn={Boolean(rootData?.user)} aboutUrl={site?.aboutUrl ?? "/about"} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:py-12">
        <Outlet />
      </main>
      <SiteFooter sourceUrl={site?.sourceUrl ?? "/"} fediverseHandle={loaderData.fediverseHandle} />
    </div>
  );
}
