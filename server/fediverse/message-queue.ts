import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import type { Kysely } from "kysely";
import type { Dialect } from "../kernel/db/connect.ts";
import type { Database } from "../kernel/db/schema.ts";
import {
  claimMessages,
  countQueuedMessages,
  deleteMessages,
  extendClaims,
  insertMessages,
  releaseMessageClaims,
} from "./repositories/fedify-store.ts";
import { refuseAddress, type ResolveName } from "../kernel/public-address.ts";

export interface MessageQueueTuning {
  /** How often an idle listener looks for due messages another server queued. */
  pollIntervalMs?: number;
  /**
   * How many messages one listener handles at once. Two: signing and the queue's own writes run
   * on the thread that serves readers, and at eight a reader's slowest pages tripled while a post
   * went out, where at two they held and the post reached its followers as fast (bench/fediverse.ts).
   */
  concurrency?: number;
  /** How long a claim holds a message; renewed while its handler runs, so only a dead server's lapses. */
  leaseMs?: number;
}

type Handler = (message: unknown) => Promise<void> | void;

/** What the blog will not send: a delivery to an inbox that is not a public address, dropped. */
export class PrivateAddressError extends Error {
  constructor(inbox: string, activityId: string, reason: string) {
    super(`Dropped the delivery of ${activityId} to ${inbox}: ${reason}`);
    this.name = "PrivateAddressError";
  }
}

export interface DeliveryAddressCheck {
  /** FEDIVERSE_ALLOW_PRIVATE_ADDRESS (test servers only): every inbox is sent to. */
  allowPrivateAddress?: boolean;
  /** Told of each delivery dropped because its inbox is not a public address. */
  onRefused?: (error: PrivateAddressError) => void;
  /** How names are resolved; the system's resolver unless given. */
  resolve?: ResolveName;
}

/** The inbox of one of Fedify's deliveries ("outbox" messages; a fan-out becomes those). */
function deliveryOf(message: unknown): { inbox: string; activityId: string } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { type, inbox, activityId } = message as { type?: unknown; inbox?: unknown; activityId?: unknown };
  if (type !== "outbox" || typeof inbox !== "string") return undefined;
  return { inbox, activityId: typeof activityId === "string" ? activityId : "an activity" };
}

/**
 * Fedify's message queue in the blog's database (docs/decisions/0015-fediverse.md): fan-out,
 * deliveries and their retries are rows in `fedify_messages`, so they survive a restart and
 * several app servers on one PostgreSQL database share them without taking the same message.
 * A message is deleted once its handler returns (those handled meanwhile together, before the
 * listener's next claim); Fedify queues its own retries (nativeRetrial false), so a handler
 * that throws is not run again by the queue. A server that dies while
 * handling leaves its claims to lapse and be taken again: delivery is at least once, exactly
 * once across an orderly stop, which lets the handlers in flight finish first.
 *
 * Every delivery Fedify makes passes here as an "outbox" message naming one inbox: one that is
 * not a public address now (DNS included) is dropped before Fedify sends it, unless private
 * addresses are allowed (docs/decisions/0015-fediverse.md, "Private addresses").
 */
export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #now: () => Date;
  readonly #pollIntervalMs: number;
  readonly #concurrency: number;
  readonly #leaseMs: number;
  readonly #addressCheck: DeliveryAddressCheck;
  readonly #wakers = new Set<() => void>();

  constructor(
    {
      db,
      dialect,
      now = () => new Date(),
      ...addressCheck
    }: { db: Kysely<Database>; dialect: Dialect; now?: () => Date } & DeliveryAddressCheck,
    tuning: MessageQueueTuning = {},
  ) {
    this.#db = db;
    this.#dialect = dialect;
    this.#now = now;
    this.#addressCheck = addressCheck;
    this.#pollIntervalMs = tuning.pollIntervalMs ?? 1_000;
    this.#concurrency = tuning.concurrency ?? 2;
    this.#leaseMs = tuning.leaseMs ?? 60_000;
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const now = this.#now();
    const delayMs = options?.delay ? Math.max(0, options.delay.total({ unit: "millisecond" })) : 0;
    const availableAt = new Date(now.getTime() + delayMs).toISOString();
    await insertMessages(
      this.#db,
      messages.map((message) => ({
        payload: JSON.stringify(message),
        orderingKey: options?.orderingKey ?? null,
        availableAt,
        at: now.toISOString(),
      })),
    );
    // A listener in this process need not wait for its next poll.
    if (delayMs === 0) for (const wake of this.#wakers) wake();
  }

  async getDepth(): Promise<MessageQueueDepth> {
    return countQueuedMessages(this.#db, this.#now().toISOString());
  }

  /**
   * Frees the claims an earlier run of this server left: every claim on SQLite, whose file one
   * process serves, only lapsed ones on PostgreSQL, where other servers may be holding theirs.
   */
  async releaseStaleClaims(): Promise<number> {
    return releaseMessageClaims(this.#db, this.#dialect === "sqlite" ? undefined : this.#now().toISOString());
  }

  /** Handles due messages until `signal` aborts, then resolves once the handlers in flight are done. */
  async listen(handler: Handler, options?: MessageQueueListenOptions): Promise<void> {
    const signal = options?.signal;
    const inFlight = new Map<number, Promise<void>>();
    // Handled messages, deleted together before the next claim: one write for a batch, not one each.
    const handled: number[] = [];
    const forgetHandled = () =>
      handled.length === 0 ? Promise.resolve() : deleteMessages(this.#db, handled.splice(0)).catch(() => {});
    // Set by a finished handler or a local enqueue, so a wake-up between claim and sleep is not lost.
    let woken = false;
    let wake: () => void = () => {};
    const waker = () => {
      woken = true;
      wake();
    };
    this.#wakers.add(waker);
    const renewal = setInterval(() => {
      extendClaims(this.#db, [...inFlight.keys()], this.#leaseUntil()).catch(() => {});
    }, this.#leaseMs / 3);
    try {
      while (!signal?.aborted) {
        await forgetHandled();
        const room = this.#concurrency - inFlight.size;
        const claimed = room > 0 ? await this.#claim(room) : [];
        for (const message of claimed) {
          const done = this.#handle(handler, message).finally(() => {
            inFlight.delete(message.id);
            handled.push(message.id);
            waker();
          });
          inFlight.set(message.id, done);
        }
        if ((claimed.length > 0 && claimed.length === room) || woken) {
          woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(finish, this.#pollIntervalMs);
          signal?.addEventListener("abort", finish, { once: true });
          wake = finish;
          function finish() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", finish);
            woken = false;
            resolve();
          }
        });
      }
      await Promise.all(inFlight.values());
      await forgetHandled();
    } finally {
      clearInterval(renewal);
      this.#wakers.delete(waker);
    }
  }

  async #claim(limit: number) {
    const now = this.#now();
    try {
      return await claimMessages(this.#db, this.#dialect, {
        at: now.toISOString(),
        leaseUntil: this.#leaseUntil(),
        limit,
      });
    } catch {
      // The database is away for a moment: the next poll tries again, the queue keeps its rows.
      return [];
    }
  }

  async #handle(handler: Handler, message: { id: number; payload: string }): Promise<void> {
    try {
      const payload: unknown = JSON.parse(message.payload);
      const refusal = await this.#refuseDelivery(payload);
      if (refusal) {
        this.#addressCheck.onRefused?.(refusal);
        return;
      }
      await handler(payload);
    } catch {
      // Fedify has already queued its retry (or given up and reported it through onOutboxError).
    }
  }

  /** Checked as the message is handled, not queued: a retry hours later resolves the name again. */
  async #refuseDelivery(message: unknown): Promise<PrivateAddressError | undefined> {
    const { allowPrivateAddress = false, resolve } = this.#addressCheck;
    const delivery = deliveryOf(message);
    if (allowPrivateAddress || !delivery) return undefined;
    const reason = await refuseAddress(delivery.inbox, resolve);
    return reason === undefined ? undefined : new PrivateAddressError(delivery.inbox, delivery.activityId, reason);
  }

  #leaseUntil(): string {
    return new Date(this.#now().getTime() + this.#leaseMs).toISOString();
  }
}
