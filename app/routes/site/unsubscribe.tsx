import { ErrorPanel } from "~/components/site/error-panel";
import { buttonStyles } from "~/components/ui/styles";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { withRouteErrors } from "~/lib/route-errors.server";
import { staticPage } from "~/lib/static-page";
import { queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/unsubscribe";

const failed = { DATABASE_UNAVAILABLE: "The unsubscription could not be saved. Please try again." };

/**
 * Mail scanners and link previews open every link in an email, so opening this page changes
 * nothing: it checks the signed token and shows one button.
 */
export const loader = withRouteErrors(failed, async ({ request, context }: Route.LoaderArgs) => {
  const token = queryText(new URL(request.url), "token");
  context.get(appContext).services.subscriptions.checkUnsubscribeToken(token);
  return { token };
});

/**
 * The button, and RFC 8058's one-click POST (`List-Unsubscribe=One-Click`) that a mail provider
 * sends to the List-Unsubscribe address without a cookie or an Origin naming this site (the
 * same-origin check lets this path through: server/kernel/http-request-checks.ts). The signed token in
 * the address is the only authority; using it again succeeds again.
 */
export const action = withRouteErrors(failed, async ({ request, context }: Route.ActionArgs) => {
  await context.get(appContext).services.subscriptions.unsubscribe(queryText(new URL(request.url), "token"));
  return { unsubscribed: true };
});

/** The page is one reader's; no shared cache keeps it. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ error, matches, location }) =>
  error
    ? errorMeta(error)
    : seoMeta({
        title: "Unsubscribe",
        description: "Stop getting new posts by email.",
        noindex: true,
        matches,
        location,
      }),
);

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData) {
    return (
      <section className="mx-auto max-w-xl space-y-4 py-8">
        <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">You are unsubscribed</h1>
        <p className="text-slate-700 dark:text-slate-300">
          No more posts will be emailed to you. Changed your mind? Subscribe again from any page.
        </p>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl space-y-4 py-8">
      <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">Unsubscribe</h1>
      <p className="text-slate-700 dark:text-slate-300">Stop getting new posts by email, with one click.</p>
      {/* The body RFC 8058 prescribes, so the button and a mail provider send the same request. */}
      <form method="post" action={`/unsubscribe?token=${encodeURIComponent(loaderData.token)}`}>
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" data-pending-label="Unsubscribing…" className={buttonStyles.primary}>
          Unsubscribe
        </button>
      </form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
