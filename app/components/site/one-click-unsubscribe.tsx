import type { ReactNode } from "react";
import { buttonStyles } from "~/components/ui/styles";

export interface OneClickUnsubscribeProps {
  /** The address the button posts to, the signed token in it (the same as List-Unsubscribe's). */
  action: string;
  done: boolean;
  title: string;
  invitation: ReactNode;
  button: string;
  doneTitle: string;
  doneText: ReactNode;
}

/**
 * An email's unsubscribe page (the newsletter's, the reply emails'): one button before, one
 * sentence after. Opening the page changes nothing, since mail scanners open every link.
 */
export function OneClickUnsubscribe({
  action,
  done,
  title,
  invitation,
  button,
  doneTitle,
  doneText,
}: OneClickUnsubscribeProps) {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-8">
      <h1 className="font-serif text-3xl font-bold text-slate-900 dark:text-white">{done ? doneTitle : title}</h1>
      <p className="text-slate-700 dark:text-slate-300">{done ? doneText : invitation}</p>
      {done ? null : (
        // The body RFC 8058 prescribes, so the button and a mail provider send the same request.
        <form method="post" action={action}>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" data-pending-label="Unsubscribing…" className={buttonStyles.primary}>
            {button}
          </button>
        </form>
      )}
    </section>
  );
}
