import { Link } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { textLinkStyles } from "~/components/ui/styles";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { withRouteErrors } from "~/lib/route-errors.server";
import { staticPage } from "~/lib/static-page";
import { queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribe-confirm";

/**
 * The link in the confirmation email. Opening it confirms, as double opt-in asks: the token is
 * signed, expires after 7 days and is idempotent, so a mail scanner opening it first only does
 * what the reader's click would (docs/decisions/0014, "Subscriptions and tokens").
 */
export const loader = withRouteErrors(
  { DATABASE_UNAVAILABLE: "The subscription could not be confirmed. Please try again." },
  async ({ request, context }: Route.LoaderArgs) => {
    const token = queryText(new URL(request.url), "token");
    const { state } = await context.get(appContext).services.subscriptions.confirm(token);
    return { subscribed: state === "active" };
  },
);

/** The answer is one reader's; no shared cache keeps it. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) => {
  if (error || !loaderData) return errorMeta(error);
  const title = loaderData.subscribed ? "You are subscribed" : "This address gets no posts";
  return seoMeta({ title, description: title, noindex: true, matches, location });
});

export default function SubscribeConfirm({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-8">
      {loaderData.subscribed ? (
        <>
          <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">You are subscribed</h1>
          <p className="text-slate-700 dark:text-slate-300">
            Every new post will reach your inbox. Each email has a link to unsubscribe in one click.
          </p>
        </>
      ) : (
        <>
          <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">This address gets no posts</h1>
          <p className="text-slate-700 dark:text-slate-300">
            Emails to it could not be delivered, or it was unsubscribed meanwhile. Subscribe again from any page.
          </p>
        </>
      )}
      <Link to="/blog" className={textLinkStyles}>
        Read the latest posts
      </Link>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
