import { Outlet, useRouteLoaderData } from "react-router";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import type { loader as rootLoader } from "~/root";

export default function SiteLayout() {
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
      <SiteFooter sourceUrl={site?.sourceUrl ?? "/"} />
    </div>
  );
}
