import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { DomainError, isDomainError } from "#domain/errors.ts";
import {
  CONFIRM_LINK_EXPIRED_MESSAGE,
  CONFIRM_LINK_INVALID_MESSAGE,
  CONFIRM_LINK_TTL_MS,
  SUBSCRIBE_ANSWER,
  type SubscriberState,
  subscribeSchema,
  subscriberAddressKey,
  SUBSCRIPTIONS_CLOSED_MESSAGE,
  UNSUBSCRIBE_LINK_INVALID_MESSAGE,
} from "#domain/newsletter.ts";
import { absoluteUrl } from "#domain/site-urls.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as subscribers from "./repositories/subscribers.ts";
import { composeConfirmationEmail, type EmailSite } from "./email.ts";
import type { RateLimiter, RateLimitPolicy } from "../kernel/rate-limit.ts";

/**
 * Per client address: a person subscribes once or twice, a script trying addresses stops
 * after ten an hour (then 429, as for comments). Counted in the database, shared by every app server.
 */
export const SUBSCRIBE_ADDRESS_LIMIT: RateLimitPolicy = { maxHits: 10, windowMs: 60 * 60 * 1000 };
/**
 * Per email address: three confirmation emails a day, so nobody can fill a stranger's inbox
 * from many client addresses. Past it the answer is the same and no email goes.
 */
export const SUBSCRIBE_EMAIL_LIMIT: RateLimitPolicy = { maxHits: 3, windowMs: 24 * 60 * 60 * 1000 };

/** Confirmation requests read at a time by the worker's tick. */
const CONFIRMATIONS_PER_LOOK = 50;

/** The longest token either kind can be; anything longer is refused before any work. */
const TOKEN_MAX = 120;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A single email as the outbox takes it (server/newsletter/outbox.ts). */
export interface SingleEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export type EnqueueSingle = (email: SingleEmail) => Promise<unknown>;

/**
 * Signed, URL-safe tokens for the newsletter's links. The key is derived from the session secret
 * with HKDF (label "newsletter"), so it is independent of the cookies' key while needing no secret
 * of its own; changing SESSION_SECRET voids every link already sent (docs/decisions/0014).
 * A confirmation token is `c.<subscriber id>.<expiry, milliseconds base 36>.<HMAC-SHA256>`; an unsubscribe
 * token is `u.<subscriber id>.<HMAC-SHA256>`, the same for a subscriber forever.
 */
export function createSubscriptionTokens({ secret, now }: { secret: string; now: () => Date }) {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "newsletter", 32));
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

  /** The payload's parts when `token` is `<kind>.<parts…>.<signature>` with a signature this key made. */
  function verified(token: string, kind: "c" | "u", parts: number): string[] | undefined {
    if (token.length > TOKEN_MAX) return undefined;
    const fields = token.split(".");
    if (fields.length !== parts + 2 || fields[0] !== kind) return undefined;
    const given = Buffer.from(fields.at(-1)!);
    const expected = Buffer.from(sign(fields.slice(0, -1).join(".")));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const payload = fields.slice(1, -1);
    return ID_PATTERN.test(payload[0]!) ? payload : undefined;
  }

  return {
    confirmToken(subscriberId: string): string {
      const expires = (now().getTime() + CONFIRM_LINK_TTL_MS).toString(36);
      const payload = `c.${subscriberId}.${expires}`;
      return `${payload}.${sign(payload)}`;
    },

    unsubscribeToken(subscriberId: string): string {
      const payload = `u.${subscriberId}`;
      return `${payload}.${sign(payload)}`;
    },

    /** Whom a confirmation token names and when it was made; refuses a forged, damaged or expired one. */
    readConfirmToken(token: string): { subscriberId: string; issuedAt: Date } {
      const payload = verified(token, "c", 2);
      const expires = payload && /^[0-9a-z]{1,10}$/.test(payload[1]!) ? parseInt(payload[1]!, 36) : NaN;
      if (!payload || !Number.isFinite(expires)) {
        throw new DomainError("SUBSCRIPTION_LINK_INVALID", CONFIRM_LINK_INVALID_MESSAGE);
      }
      if (now().getTime() >= expires) throw new DomainError("SUBSCRIPTION_LINK_EXPIRED", CONFIRM_LINK_EXPIRED_MESSAGE);
      return { subscriberId: payload[0]!, issuedAt: new Date(expires - CONFIRM_LINK_TTL_MS) };
    },

    readUnsubscribeToken(token: string): string {
      const payload = verified(token, "u", 1);
      if (!payload) throw new DomainError("SUBSCRIPTION_LINK_INVALID", UNSUBSCRIBE_LINK_INVALID_MESSAGE);
      return payload[0]!;
    },

    /** A key for the per-email limit, one for every spelling of an address (subscriberAddressKey). */
    emailKey(email: string): string {
      return `subscribe-email:${sign(`r.${subscriberAddressKey(email)}`)}`;
    },
  };
}

export type SubscriptionTokens = ReturnType<typeof createSubscriptionTokens>;

export interface SubscriptionServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** SESSION_SECRET, or the one generated into the data directory (server/kernel/config.ts resolveSessionSecret). */
  secret: string;
  /** SITE_URL and the blog's title as Settings name it, read when a confirmation email is made. */
  readSite: () => Promise<EmailSite>;
  /** The outbox's; undefined: email is never on here (tools, tests), and no address is collected. */
  enqueueSingle: EnqueueSingle | undefined;
  /** Whether email is on now (the mail server's, server/newsletter/email-server.ts); always, unless told. */
  isEmailOn?: () => Promise<boolean>;
  /** The services' one limiter (rate-limit.ts), which stores keys hashed. */
  limiter: RateLimiter;
  addressLimit?: RateLimitPolicy;
  emailLimit?: RateLimitPolicy;
}

export interface Visitor {
  clientAddress: string;
  /** The form's hidden field; people leave it empty. */
  honeypot?: string;
}

export function createSubscriptionService({
  db,
  now,
  secret,
  readSite,
  enqueueSingle,
  isEmailOn = async () => true,
  limiter,
  addressLimit = SUBSCRIBE_ADDRESS_LIMIT,
  emailLimit = SUBSCRIBE_EMAIL_LIMIT,
}: SubscriptionServiceDeps) {
  const tokens = createSubscriptionTokens({ secret, now });

  /** Whether the per-email budget allows one more confirmation email; never an error, so never a tell. */
  async function mayEmail(email: string): Promise<boolean> {
    try {
      await limiter.consume(tokens.emailKey(email), emailLimit);
      return true;
    } catch (error) {
      if (isDomainError(error, "RATE_LIMITED")) return false;
      throw error;
    }
  }

  return {
    confirmToken: tokens.confirmToken,
    unsubscribeToken: tokens.unsubscribeToken,
    /** Whether the form may collect addresses: only when a confirmation email can reach them. */
    async isOpen(): Promise<boolean> {
      return enqueueSingle !== undefined && (await isEmailOn());
    },

    /** Refuses a forged or damaged unsubscribe link, so its page can say so before anyone clicks. */
    checkUnsubscribeToken(token: string): void {
      tokens.readUnsubscribeToken(token);
    },

    /**
     * Double opt-in. The answer is always SUBSCRIBE_ANSWER, whatever the address's state, so the
     * form tells nobody who is subscribed: every accepted address costs the same two statements
     * (its client address's count, and `requestSubscription`, which records that it asked), and
     * the confirmation email is queued after the answer, by `sendRequestedConfirmations`. A filled
     * honeypot gets the same answer and no row. Each attempt counts against the client address first.
     */
    async subscribe(email: string, visitor?: Visitor): Promise<typeof SUBSCRIBE_ANSWER> {
      if (!enqueueSingle || !(await isEmailOn()))
        throw new DomainError("SUBSCRIPTIONS_CLOSED", SUBSCRIPTIONS_CLOSED_MESSAGE);
      if (visitor) await limiter.consume(`subscribe:${visitor.clientAddress}`, addressLimit);
      const parsed = subscribeSchema.safeParse({ email });
      if (!parsed.success) throw new DomainError("EMAIL_INVALID", parsed.error.issues[0]!.message);
      if (visitor?.honeypot) return SUBSCRIBE_ANSWER;
      await subscribers.requestSubscription(db, { email: parsed.data.email, source: "form", now: now().toISOString() });
      return SUBSCRIBE_ANSWER;
    },

    /**
     * The outbox worker's tick (server.ts): queues the confirmation emails subscriptions asked
     * for. A new, pending or unsubscribed address gets one (within the per-email limit); an active
     * or bounced one gets nothing. A request is cleared only once its email is queued, so a crash
     * in between sends it at the next tick (two servers looking at once may both send it).
     */
    async sendRequestedConfirmations(): Promise<void> {
      if (!enqueueSingle) return;
      for (;;) {
        const requests = await subscribers.listConfirmationRequests(db, CONFIRMATIONS_PER_LOOK);
        for (const { subscriber, requestedAt } of requests) {
          if (
            (subscriber.state === "pending" || subscriber.state === "unsubscribed") &&
            (await mayEmail(subscriber.email))
          ) {
            const site = await readSite();
            const confirmUrl = absoluteUrl(
              site.url,
              `/subscribe/confirm?token=${encodeURIComponent(tokens.confirmToken(subscriber.id))}`,
            );
            await enqueueSingle({ to: subscriber.email, ...composeConfirmationEmail(site, confirmUrl) });
          }
          await subscribers.clearConfirmationRequest(db, subscriber.id, requestedAt);
        }
        if (requests.length < CONFIRMATIONS_PER_LOOK) return;
      }
    },

    /**
     * The confirmation link: the subscriber becomes active (again, when they asked after
     * unsubscribing). Idempotent. A link made before an unsubscription reads as expired, so an
     * old email cannot undo it.
     */
    async confirm(token: string): Promise<{ email: string; state: SubscriberState }> {
      const { subscriberId, issuedAt } = tokens.readConfirmToken(token);
      const subscriber = await subscribers.findSubscriberById(db, subscriberId);
      if (!subscriber) throw new DomainError("SUBSCRIPTION_LINK_INVALID", CONFIRM_LINK_INVALID_MESSAGE);
      if (subscriber.state === "active" || subscriber.state === "bounced") {
        return { email: subscriber.email, state: subscriber.state };
      }
      if (subscriber.state === "unsubscribed" && Date.parse(subscriber.unsubscribedAt!) > issuedAt.getTime()) {
        throw new DomainError("SUBSCRIPTION_LINK_EXPIRED", CONFIRM_LINK_EXPIRED_MESSAGE);
      }
      const confirmed = await subscribers.confirmSubscriber(db, subscriber.id, {
        now: now().toISOString(),
        from: [subscriber.state],
      });
      if (confirmed) return { email: subscriber.email, state: "active" };
      // Changed since it was read (unsubscribed or deleted meanwhile): say what it is now.
      const current = await subscribers.findSubscriberById(db, subscriber.id);
      if (!current) throw new DomainError("SUBSCRIPTION_LINK_INVALID", CONFIRM_LINK_INVALID_MESSAGE);
      return { email: current.email, state: current.state };
    },

    /**
     * The unsubscribe link and RFC 8058's one-click POST: no second question, and the same
     * success however often it is used, or when the subscriber was deleted since.
     */
    async unsubscribe(token: string): Promise<void> {
      const subscriberId = tokens.readUnsubscribeToken(token);
      await subscribers.unsubscribeSubscriber(db, subscriberId, now().toISOString());
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
