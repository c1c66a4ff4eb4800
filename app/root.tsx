import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { appContext, userContext } from "./context";
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? "Page Not Found" : "Something went wrong";
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <title>{title}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-300">
        {status === 404 ? "The page you are looking for does not exist." : "Please try again in a moment."}
      </p>
      <a className="mt-8 inline-block underline" href="/">
        Back to Home
      </a>
    </main>
  );
}
