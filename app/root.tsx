import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { ErrorPanel } from "./components/site/error-panel";
import { appContext, userContext } from "./context";
import { errorMeta, pageMeta } from "./lib/meta";
import { themeBootScript } from "./lib/theme";

/** Resolves the signed-in admin once per request, for every loader and action below. */
const sessionMiddleware: Route.MiddlewareFunction = async ({ request, context }) => {
  const { services, sessionCookie, logger } = context.get(appContext);
  const token: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  let user = null;
  if (typeof token === "string") {
    try {
      user = (await services.auth.getSessionUser(token)) ?? null;
    } catch (error) {
      logger.error({ err: error }, "session lookup failed");
    }
  }
  context.set(userContext, user);
};

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const { site, cspNonce } = context.get(appContext);
  const user = context.get(userContext);
  return {
    user: user ? { username: user.username, email: user.email, isAdmin: user.isAdmin } : null,
    site,
    cspNonce,
  };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/** Routes below replace this with their own; it covers errors that reach the root. */
export const meta: Route.MetaFunction = ({ error }) => (error ? errorMeta(error) : pageMeta("Home"));

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = rootData?.cspNonce;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
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
