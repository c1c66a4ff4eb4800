import { useRouteLoaderData } from "react-router";
import { FormError, TextField } from "~/components/ui/field";
import { buttonStyles } from "~/components/ui/styles";
import { useValidatedForm } from "~/lib/forms";
import type { loader as rootLoader } from "~/root";
import { HONEYPOT_FIELD } from "#domain/comment.ts";
import type { FormResult } from "#domain/forms.ts";
import { subscribeForm, SUBSCRIPTIONS_CLOSED_MESSAGE } from "#domain/newsletter.ts";

export type SubscribeFormResult = FormResult<"email", { email: string }>;

interface SubscribeFormProps {
  /** Unique on the page: the footer's and a post's forms can both be there. */
  id: string;
  /** The action's refusal, on the subscribe page itself. */
  result?: SubscribeFormResult;
}

/**
 * The newsletter's form in the footer and under each post: a plain post to /subscribe, as
 * readers' pages load no React (docs/decisions/0011). It is the same for every visitor, so the
 * pages that show it stay in the page cache. Without SMTP_URL it collects nothing and says why.
 */
export function SubscribeForm({ id, result }: SubscribeFormProps) {
  const open = useRouteLoaderData<typeof rootLoader>("root")?.subscriptionsOpen ?? false;
  const form = useValidatedForm(subscribeForm, { id, result });
  return (
    // Not a landmark: a post page shows it twice (under the post and in the footer).
    <div className="max-w-md">
      <h2 className="text-sm font-semibold text-slate-900 dark:text-white">Get new posts by email</h2>
      {open ? (
        <form method="post" action="/subscribe" {...form.props} className="mt-3 space-y-3">
          <FormError message={form.formError} />
          <TextField
            {...form.field("email")}
            label="Email address"
            hint="Subscribers only get new posts; unsubscribe in one click"
            type="email"
            autoComplete="email"
            defaultValue={result?.values.email}
          />
          <div className="sr-only" aria-hidden="true">
            <label htmlFor={`${id}-website`}>Leave this field empty</label>
            <input id={`${id}-website`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
          </div>
          {/* The page script shows the pending label (app/lib/page-script.ts). */}
          <button type="submit" data-pending-label="Subscribing…" className={buttonStyles.primary}>
            Subscribe
          </button>
        </form>
      ) : (
        <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">{SUBSCRIPTIONS_CLOSED_MESSAGE}.</p>
      )}
    </div>
  );
}
