import { ErrorPanel } from "~/components/site/error-panel";
import { buttonStyles } from "~/components/ui/styles";
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
  if (actionData) {
    return (
      <section className="mx-auto max-w-xl space-y-4 py-8">
        <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">No more reply emails</h1>
        <p className="text-slate-700 dark:text-slate-300">
          This address gets no more emails about replies to comments here, and the blog no longer keeps it.
        </p>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl space-y-4 py-8">
      <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">Stop reply emails</h1>
      <p className="text-slate-700 dark:text-slate-300">
        Stop getting emails about replies to your comments, with one click.
      </p>
      {/* The body RFC 8058 prescribes, so the button and a mail provider send the same request. */}
      <form method="post" action={`/unsubscribe/replies?token=${encodeURIComponent(loaderData.token)}`}>
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" data-pending-label="Unsubscribing…" className={buttonStyles.primary}>
          Stop reply emails
        </button>
      </form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
