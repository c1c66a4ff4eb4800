import { ErrorPanel } from "~/components/site/error-panel";
import { OneClickUnsubscribe } from "~/components/site/one-click-unsubscribe";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { withRouteErrors } from "~/lib/route-errors.server";
import { staticPage } from "~/lib/static-page";
import { queryText } from "#domain/forms.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/unsubscribe-replies";

const failed = { DATABASE_UNAVAILABLE: "The unsubscription could not be saved. Please try again." };

/** Opening the page changes nothing (mail scanners open every link): it checks the signed token and shows one button. */
export const loader = withRouteErrors(failed, async ({ request, context }: Route.LoaderArgs) => {
  const token = queryText(new URL(request.url), "token");
  context.get(appContext).services.commentEmails.checkUnsubscribeToken(token);
  return { token };
});

/**
 * The button, and RFC 8058's one-click POST a mail provider sends to List-Unsubscribe without a
 * cookie or an Origin (server/kernel/http-request-checks.ts lets this path through). The signed
 * token is the only authority; using it again succeeds again (docs/decisions/0024).
 */
export const action = withRouteErrors(failed, async ({ request, context }: Route.ActionArgs) => {
  await context.get(appContext).services.commentEmails.unsubscribe(queryText(new URL(request.url), "token"));
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
        title: "Stop reply emails",
        description: "Stop getting emails about replies to your comments.",
        noindex: true,
        matches,
        location,
      }),
);

export default function UnsubscribeReplies({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <OneClickUnsubscribe
      action={`/unsubscribe/replies?token=${encodeURIComponent(loaderData.token)}`}
      done={actionData !== undefined}
      title="Stop reply emails"
      invitation="Stop getting emails about replies to your comments, with one click."
      button="Stop reply emails"
      doneTitle="No more reply emails"
      doneText="This address gets no more emails about replies to comments here, and the blog no longer keeps it."
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
