import { Form, NavLink, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { appContext } from "#server/request-context.ts";
import { withRouteErrors } from "~/lib/route-errors.server";
import { ADMIN_SECTIONS } from "~/components/admin/sections";
import { Spinner } from "~/components/admin/spinner";
import { requireAdmin } from "~/lib/auth.server";
import { answerImageUpload } from "~/lib/image-upload.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/layout";

/**
 * The gate for everything under /admin, on every document, data and action request:
 * no session, no response. Admin pages are private and never cached or indexed.
 */
const requireAdminSession: Route.MiddlewareFunction = async ({ request, context }, next) => {
  requireAdmin({ request, context });
  const response = await next();
  response.headers.set("Cache-Control", "private, no-store");
  response.headers.set("X-Robots-Tag", "noindex");
  return response;
};

export const middleware: Route.MiddlewareFunction[] = [answerImageUpload, requireAdminSession];

/** The sidebar's badge (how many comments wait), and the editor's view the writer last chose. */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "Failed to load the admin area. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const writer = requireAdmin({ request, context });
    return {
      pendingComments: await context.get(appContext).services.comments.countPending(),
      writingView: writer.writingView,
    };
  },
);

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive
      ? "bg-indigo-600 text-white"
      : "text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
  }`;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { pendingComments } = loaderData;
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  const loading = navigation.state === "loading";
  return (
    <div className="admin-shell min-h-screen bg-slate-50 md:flex dark:bg-slate-950">
      <meta name="robots" content="noindex" />
      <aside className="border-b border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:w-60 md:shrink-0 md:flex-col md:overflow-y-auto md:border-r md:border-b-0 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex min-w-0 items-center justify-between gap-2 px-4 pt-3 md:block md:px-5 md:pt-6">
          <NavLink to="/" className="shrink-0 text-lg font-bold tracking-tight">
            Blog Admin
          </NavLink>
          {rootData?.user ? (
            <p className="min-w-0 truncate text-xs text-slate-500 md:mt-1 dark:text-slate-400">
              Signed in as {rootData.user.username}
            </p>
          ) : null}
          {/* A document load, not the client router: the readers' pages run no React. */}
          <a
            href="/"
            className="text-sm font-medium whitespace-nowrap text-indigo-700 hover:underline md:mt-2 md:block dark:text-indigo-300"
          >
            View site
          </a>
        </div>
        {/* On a phone the sections fold into a menu that opens without JavaScript; from md up it is always open (app/styles/admin.css).
            A new one on every screen, so the menu a tap opened closes as its screen comes. */}
        <details key={pathname} className="admin-menu px-2 pb-2 md:flex-1 md:px-3 md:pb-6">
          <summary className="mt-2 flex cursor-pointer list-none items-center justify-between rounded-md border border-slate-300 px-3 py-2 text-sm font-medium md:hidden dark:border-slate-700 [&::-webkit-details-marker]:hidden">
            Menu
            <span aria-hidden="true" className="admin-menu-caret transition-transform">
              ▾
            </span>
          </summary>
          <nav aria-label="Admin" className="pt-2 md:pt-6">
            <ul className="flex flex-col gap-1">
              {ADMIN_SECTIONS.filter((section) => !section.ownerOnly || rootData?.user?.role === "owner").map(
                (section) => (
                  <li key={section.to} className="flex items-center gap-1">
                    <NavLink to={section.to} end={section.end} className={(state) => `${linkClass(state)} flex-1`}>
                      {section.label}
                    </NavLink>
                    {section.to === "/admin/comments" && pendingComments > 0 ? (
                      // Beside the link rather than in it, so the link keeps its name as the count changes.
                      <span className="rounded-full bg-amber-200 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-amber-950">
                        {pendingComments}
                        <span className="sr-only"> comments pending</span>
                      </span>
                    ) : null}
                  </li>
                ),
              )}
              <li className="mt-2 border-t border-slate-200 pt-2 md:mt-4 md:pt-4 dark:border-slate-800">
                <Form method="post" action="/logout">
                  <button
                    type="submit"
                    className="block w-full rounded-md px-3 py-2 text-left text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
                  >
                    Logout
                  </button>
                </Form>
              </li>
            </ul>
          </nav>
        </details>
      </aside>
      <div className="relative min-w-0 flex-1">
        {loading ? (
          <div
            role="status"
            className="fixed top-3 right-3 z-50 flex items-center gap-2 rounded-full bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-lg"
          >
            <Spinner className="h-4 w-4" />
            Loading…
          </div>
        ) : null}
        <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 md:py-10">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
