import { redirect } from "react-router";
import { ErrorPanel } from "~/components/site/error-panel";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { parseSubmission, perform } from "~/lib/forms.server";
import { errorMeta, seoMeta, withSite } from "~/lib/meta";
import { staticPage } from "~/lib/static-page";
import { HONEYPOT_FIELD } from "#domain/comment.ts";
import { formText } from "#domain/forms.ts";
import { SUBSCRIBE_ANSWER, subscribeForm } from "#domain/newsletter.ts";
import { appContext } from "#server/request-context.ts";
import type { Route } from "./+types/subscribe";

/** Where the answer lands after a subscription, so a reload never posts the form again. */
const ANSWERED = "/subscribe?sent=1";

export function loader({ request }: Route.LoaderArgs) {
  return { answered: new URL(request.url).searchParams.has("sent") };
}

/**
 * The footer's and each post's form post here. Every accepted address gets the same answer,
 * whatever its state (docs/decisions/0014, "Subscriptions and tokens"); a refusal comes back to
 * this page's own form with its message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, clientAddress } = context.get(appContext);
  const submission = await parseSubmission(request, subscribeForm);
  if (!submission.ok) return submission.response;
  const outcome = await perform(
    context,
    () =>
      services.subscriptions.subscribe(submission.input.email, {
        clientAddress,
        honeypot: formText(submission.formData, HONEYPOT_FIELD) || undefined,
      }),
    {
      values: submission.values,
      messages: {
        RATE_LIMITED: "You are subscribing too often. Please wait an hour and try again.",
        DATABASE_UNAVAILABLE: "The subscription could not be saved. Please try again.",
      },
    },
  );
  return outcome.ok ? redirect(ANSWERED, 303) : outcome.response;
}

/** A refusal keeps its headers (Retry-After) on the page the browser gets back. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export const handle = staticPage;

export const meta: Route.MetaFunction = withSite(({ loaderData, error, matches, location }) => {
  if (error || !loaderData) return errorMeta(error);
  return seoMeta({
    title: loaderData.answered ? SUBSCRIBE_ANSWER : "Subscribe",
    description: "Get new posts by email.",
    noindex: true,
    matches,
    location,
  });
});

export default function Subscribe({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.answered && !actionData) {
    return (
      <section className="mx-auto max-w-xl space-y-4 py-8">
        <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">{SUBSCRIBE_ANSWER}</h1>
        <p className="text-slate-700 dark:text-slate-300">
          If this address is not subscribed yet, an email with a link to confirm is on its way. The link works for 7
          days; until it is clicked, nothing else is sent.
        </p>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl space-y-6 py-8">
      <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">Subscribe</h1>
      <p className="text-slate-700 dark:text-slate-300">New posts, by email, and nothing else.</p>
      <SubscribeForm id="subscribe" result={actionData} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} back={{ to: "/", label: "Back to Home" }} />;
}
