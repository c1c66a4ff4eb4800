import { z } from "./zod.ts";
import { defineForm, formText } from "./forms.ts";

/** The moments a webhook can be told of (docs/decisions/0035-webhooks.md). */
export const WEBHOOK_EVENTS = ["post.published", "post.updated", "post.unpublished", "comment.received"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "post.published": "A post is published",
  "post.updated": "A published post is changed",
  "post.unpublished": "A post is unpublished or deleted",
  "comment.received": "A comment is received",
};

export const WEBHOOK_URL_MAX = 2_000;
/** Webhooks the blog keeps at most: each change posts to every one of its event. */
export const WEBHOOKS_MAX = 20;

export const webhookSchema = z.object({
  event: z.enum(WEBHOOK_EVENTS, { error: "Choose the event the URL is told of" }),
  url: z
    .string({ error: "Please give the URL to call" })
    .trim()
    .min(1, "Please give the URL to call")
    .max(WEBHOOK_URL_MAX, `The URL must be at most ${WEBHOOK_URL_MAX} characters`)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: "The URL must start with https:// or http://",
    }),
});

export type WebhookInput = z.infer<typeof webhookSchema>;

/** Settings → Webhooks: a URL for one event. */
export const webhookForm = defineForm({
  fields: ["event", "url"],
  read: (formData: FormData) => ({ event: formText(formData, "event"), url: formText(formData, "url") }),
  schema: webhookSchema,
});

/** Settings → Webhooks: removing one. */
export const removeWebhookForm = defineForm({
  fields: ["id"],
  read: (formData: FormData) => ({ id: formText(formData, "id") }),
  schema: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Unknown webhook") }),
});

/** A new webhook as its creation answers it: the signing secret is shown this once. */
export interface NewWebhook {
  event: WebhookEvent;
  url: string;
  secret: string;
}

/** How the last call to a webhook went, in plain words for the owner. */
export interface WebhookLastDelivery {
  state: "queued" | "claimed" | "delivered" | "failed";
  attempts: number;
  /** The reason of the last failure, said plainly; null when it went through. */
  lastError: string | null;
  at: string;
}

/** A webhook as Settings → Webhooks lists it: never its secret. */
export interface WebhookSummary {
  id: string;
  event: WebhookEvent;
  url: string;
  createdAt: string;
  lastDelivery: WebhookLastDelivery | null;
}

export const WEBHOOK_FAILED_MESSAGES = {
  DATABASE_UNAVAILABLE: "That did not work. Please try again.",
  WEBHOOK_REFUSED: "That URL cannot be called.",
  WEBHOOK_NOT_FOUND: "That webhook no longer exists.",
} as const;
