import { ErrorPanel } from "~/components/site/error-panel";
import { OneClickUnsubscribe } from "~/components/site/one-click-unsubscribe";
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
  return (
    <OneClickUnsubscribe
      action={`/unsubscribe?token=${encodeURIComponent(loaderData.token)}`}
      done={actionData !== undefined}
      title="Unsubscribe"
      invitation="Stop getting new posts by email, with one click."
      button="Unsubscribe"
      doneTitle="You are unsubscribed"
      doneText="No more posts will be emailed to you. Changed your mind? Subscribe again from any page."
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
