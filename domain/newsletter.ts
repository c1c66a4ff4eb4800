import { EMAIL_MAX } from "./account.ts";
import { defineForm, formText } from "./forms.ts";
import { z } from "./zod.ts";

export const SUBSCRIBER_STATES = ["pending", "active", "unsubscribed", "bounced"] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

export const SUBSCRIBER_SOURCES = ["form", "admin", "import"] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];

/** A newsletter subscriber as the services and the Subscribers screen see it. */
export interface Subscriber {
  id: string;
  email: string;
  state: SubscriberState;
  source: SubscriberSource;
  createdAt: string;
  confirmedAt: string | undefined;
  unsubscribedAt: string | undefined;
  bounces: number;
}

/**
 * The one answer to a subscription, whatever the address's state: it tells nobody whether an
 * address is already on the list.
 */
export const SUBSCRIBE_ANSWER = "Check your inbox to confirm";
export const SUBSCRIPTIONS_CLOSED_MESSAGE = "Subscriptions are not open yet";
export const CONFIRM_LINK_INVALID_MESSAGE =
  "This confirmation link is not valid. Use the whole link from the email, or subscribe again.";
export const CONFIRM_LINK_EXPIRED_MESSAGE = "This confirmation link has expired. Subscribe again to get a new one.";
export const UNSUBSCRIBE_LINK_INVALID_MESSAGE =
  "This unsubscribe link is not valid. Use the whole link from the email.";
/** A confirmation link works for 7 days. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An address as it is stored and looked up: trimmed, its domain lower-cased (domains ignore
 * case; the part before the @ is the mailbox owner's to interpret, so it is kept as typed).
 */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf("@");
  return at < 0 ? trimmed : trimmed.slice(0, at) + trimmed.slice(at).toLowerCase();
}

/**
 * What tells two subscribers apart: the whole address, trimmed, in lower case. Mail servers all
 * but never treat the part before the @ by case, so `Reader@x` and `reader@x` are one mailbox,
 * one row and one 3-a-day budget, while the address is still sent to as it was typed. Gmail's
 * dots and `+tags` are left alone: that rule is Gmail's, and on other domains they name other
 * mailboxes. The same as SQL's `lower(email)` for the ASCII addresses `subscribeSchema` accepts.
 */
export function subscriberAddressKey(email: string): string {
  return email.trim().toLowerCase();
}

export const subscribeSchema = z.object({
  email: z
    .string({ error: "Please enter an email address" })
    .trim()
    .min(1, "Please enter an email address")
    .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
    .pipe(z.email("Please enter a valid email address"))
    .transform(normalizeEmail),
});

export type SubscribeInput = z.infer<typeof subscribeSchema>;

/** The subscribe form in a reader's footer and under each post: one email field. */
export const subscribeForm = defineForm({
  fields: ["email"],
  read: (formData: FormData) => ({ email: formText(formData, "email") }),
  schema: subscribeSchema,
});
