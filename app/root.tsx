import { useContext } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { ErrorPanel } from "./components/site/error-panel";
import { appContext, userContext } from "#server/request-context.ts";
import { errorMeta, feedLinks, pageMeta, siteNameFrom, withSite } from "./lib/meta";
import { InlineStylesContext } from "./lib/inline-styles";
import { isDomainError } from "#domain/errors.ts";
import { MICROPUB_DISCOVERY_LINKS } from "#domain/micropub.ts";
import { countsViews, pageScript } from "./lib/page-script";
import { pageHydrates } from "./lib/static-page";
import { useSite } from "./lib/use-site";
import { lookStylesheet, MANIFEST_PATH, SITE_ICON_PATHS } from "#domain/site-look.ts";
import { RSD_PATH } from "#domain/apps.ts";

/** Resolves the signed-in admin once per request, for every loader and action below. */
const sessionMiddleware: Route.MiddlewareFunction = async ({ request, context }) => {
  const { services, sessionCookie, recordFailure } = context.get(appContext);
  const token = await sessionCookie.read(request);
  let user = null;
  if (token) {
    try {
      user = (await services.auth.getSessionUser(token)) ?? null;
    } catch (error) {
      // Readers still get the page while the database is down; anything else is a bug.
      if (!isDomainError(error, "DATABASE_UNAVAILABLE")) throw error;
      recordFailure(error.cause ?? error);
    }
  }
  context.set(userContext, user);
};

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const { site, services } = context.get(appContext);
  const user = context.get(userContext);
  // Every page carries this; the email settings stay out of it, so no page shows the Reply-To to scrapers.
  const { emailFromName: _emailFromName, emailReplyTo: _emailReplyTo, ...shown } = site;
  const [countViews, authors, subscriptionsOpen] = await Promise.all([
    // Readers' pages send the analytics beacon while counting is on; while the database is down,
    // not. Any other failure is a bug and reaches the error boundary.
    services.analytics.settings().then(
      (settings) => settings.enabled,
      (error: unknown) => {
        if (isDomainError(error, "DATABASE_UNAVAILABLE")) return false;
        throw error;
      },
    ),
    // Bylines link to author pages by name (app/lib/use-author-links.ts); while the database
    // is down they stay text.
    services.users.listAuthorLinks().catch((error: unknown) => {
      if (isDomainError(error, "DATABASE_UNAVAILABLE")) return [];
      throw error;
    }),
    // The subscribe form shows while email is on (SMTP_URL, or a tested server on Settings → Email);
    // while the database is down, not.
    services.subscriptions.isOpen().catch((error: unknown) => {
      if (isDomainError(error, "DATABASE_UNAVAILABLE")) return false;
      throw error;
    }),
  ]);
  return {
    user: user ? { username: user.username, email: user.email, role: user.role, isAdmin: user.isAdmin } : null,
    site: shown,
    subscriptionsOpen,
    countViews,
    authors,
  };
}

/** Routes below replace this with their own; it covers errors that reach the root. */
export const meta: Route.MetaFunction = withSite(({ error }) => (error ? errorMeta(error) : pageMeta("Home")));

export function Layout({ children }: { children: React.ReactNode }) {
  const inlineStyles = useContext(InlineStylesContext);
  const matches = useMatches();
  const hydrates = pageHydrates(matches);
  const site = useSite();
  // The writer's accent and typeface reach readers' pages as custom properties after the
  // stylesheet, in the same inline element: no request, no style attribute (docs/decisions/0017).
  const inlineCss = hydrates ? inlineStyles?.everything : `${inlineStyles?.readers ?? ""}${lookStylesheet(site)}`;
  const countViews = countsViews(matches, useRouteLoaderData<typeof loader>("root")?.countViews === true);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: pageScript }} />
        {/* Written by the server only; hydration leaves the element as the server sent it. */}
        <style suppressHydrationWarning dangerouslySetInnerHTML={{ __html: inlineCss ?? "" }} />
        <Meta />
        <Links />
        <SiteIconLinks siteIcon={site.siteIcon} />
        {/* Every page names the blog's feeds, so a reader pointed at any page finds them; a
            links function cannot read the blog's name, so the layout writes them. */}
        {feedLinks(siteNameFrom(matches)).map((link) => (
          <link key={link.href} {...link} />
        ))}
        {/* Writing apps find Micropub and IndieAuth from any of the blog's addresses (server/micropub). */}
        {MICROPUB_DISCOVERY_LINKS.map((link) => (
          <link key={link.rel} rel={link.rel} href={link.href} />
        ))}
        {/* Really Simple Discovery: how MarsEdit and other MetaWeblog apps find /xmlrpc.php from the blog's address. */}
        <link rel="EditURI" type="application/rsd+xml" title="RSD" href={RSD_PATH} />
      </head>
      <body
        className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100"
        data-count-view={countViews ? "" : undefined}
      >
        {children}
        {hydrates ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

/** The writer's icon at the sizes browsers ask for, or the product's own favicon while there is none. */
function SiteIconLinks({ siteIcon }: { siteIcon: string }) {
  if (!siteIcon) return <link rel="icon" href="/favicon.svg" type="image/svg+xml" />;
  const { favicon, appleTouchIcon } = SITE_ICON_PATHS;
  // The hash in the query string gives a new icon a new address, past the browser's cache.
  const version = `?v=${siteIcon.slice(0, 12)}`;
  return (
    <>
      <link rel="icon" href={`${favicon.path}${version}`} sizes="32x32" type="image/png" />
      <link rel="apple-touch-icon" href={`${appleTouchIcon.path}${version}`} sizes="180x180" />
      <link rel="manifest" href={`${MANIFEST_PATH}${version}`} />
    </>
  );
}

export default function App() {
  return <Outlet />;
}

/** Only reached when the site layout itself cannot render, so it stands alone. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main" className="px-4">
      <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />
    </main>
  );
}
