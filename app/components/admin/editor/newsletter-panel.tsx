import { useEffect } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { buttonStyles } from "~/components/ui/styles";
import { formatDateTime, pluralise } from "~/lib/format";
import type { PostNewsletter } from "#domain/post.ts";

/** A post's send as the admin shows it (server/newsletter/repositories/email-outbox.ts SendProgress). */
export interface PostSendView {
  state: "sending" | "done" | "cancelled";
  total: number;
  sent: number;
  failed: number;
  finishedAt: string | null;
}

/** How often an open editor looks again while its post is being sent. */
const PROGRESS_REFRESH_MS = 3_000;

/** The posts list's one line about a post's email, or nothing when it has none. */
export function emailSummary(newsletter: PostNewsletter, send: PostSendView | undefined): string | undefined {
  if (send?.state === "sending") return `Emailing: ${send.sent} of ${send.total}`;
  if (send?.state === "done") return `Emailed to ${pluralise(send.sent, "subscriber")}`;
  if (send?.state === "cancelled") return `Email cancelled: ${send.sent} of ${send.total}`;
  if (newsletter === "sent") return "Emailed";
  return newsletter === "wanted" ? "Email at its time" : undefined;
}

/**
 * The editor's word on the post's email: progress and "Cancel sending" (a plain form, so it
 * works without JavaScript) while it goes out, and when and to how many it went afterwards.
 */
export function NewsletterPanel({
  postId,
  newsletter,
  send,
}: {
  postId: string;
  newsletter: PostNewsletter;
  send: PostSendView | undefined;
}) {
  const sending = send?.state === "sending";
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const cancelling = navigation.state === "submitting" && navigation.formAction?.endsWith("/email-send") === true;
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [sending, revalidator]);

  const failures = send && send.failed > 0 ? `, ${send.failed} failed` : "";
  let status;
  if (sending) {
    status = `Sending to subscribers: ${send.sent} of ${send.total} sent${failures}.`;
  } else if (send?.state === "done" && send.finishedAt) {
    status = (
      <>
        Emailed to {pluralise(send.sent, "subscriber")} on{" "}
        <time dateTime={send.finishedAt}>{formatDateTime(send.finishedAt)}</time>
        {send.failed > 0 ? ` (${send.failed} could not be delivered)` : ""}.
      </>
    );
  } else if (send?.state === "cancelled" && send.finishedAt) {
    status = (
      <>
        Sending cancelled on <time dateTime={send.finishedAt}>{formatDateTime(send.finishedAt)}</time>: {send.sent} of{" "}
        {send.total} sent{failures}.
      </>
    );
  } else if (newsletter === "sent") {
    status = "Emailed to subscribers.";
  } else if (newsletter === "wanted") {
    status = "Will be emailed to subscribers when it is published.";
  } else {
    return null;
  }

  return (
    <section
      aria-labelledby="newsletter-heading"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="newsletter-heading" className="sr-only">
        Email to subscribers
      </h2>
      <p role="status">{status}</p>
      {sending ? (
        <Form method="post" action={`/admin/posts/${postId}/email-send`}>
          <button type="submit" name="intent" value="cancel" disabled={cancelling} className={buttonStyles.secondary}>
            {cancelling ? "Cancelling…" : "Cancel sending"}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
