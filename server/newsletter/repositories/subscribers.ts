import { type Insertable, type Selectable, sql } from "kysely";
import {
  normalizeEmail,
  SUBSCRIBER_STATES,
  subscriberAddressKey,
  type Subscriber,
  type SubscriberSource,
  type SubscriberState,
} from "#domain/newsletter.ts";
import type { SubscribersTable } from "../../kernel/db/schema.ts";
import { escapeLikePattern } from "../../posts/index.ts";
import { type Db, inTransaction, newId, toIsoString } from "../../kernel/rows.ts";

/** Where a page of the list starts: after this subscriber, in the list's order. */
export interface SubscriberCursor {
  createdAt: string;
  id: string;
}

export interface SubscriberPage {
  items: Subscriber[];
  /** The cursor of the next page; undefined on the last one. */
  next: SubscriberCursor | undefined;
}

function toSubscriber(row: Selectable<SubscribersTable>): Subscriber {
  return {
    id: row.id,
    email: row.email,
    state: row.state,
    source: row.source as SubscriberSource,
    createdAt: toIsoString(row.created_at),
    confirmedAt: row.confirmed_at ? toIsoString(row.confirmed_at) : undefined,
    unsubscribedAt: row.unsubscribed_at ? toIsoString(row.unsubscribed_at) : undefined,
    bounces: Number(row.bounces),
  };
}

/** The address, whatever its case: one mailbox is one subscriber (migration 0022's unique index). */
const address = sql<string>`lower(email)`;

export async function findSubscriberByEmail(db: Db, email: string): Promise<Subscriber | undefined> {
  const row = await db
    .selectFrom("subscribers")
    .selectAll()
    .where(address, "=", subscriberAddressKey(email))
    .executeTakeFirst();
  return row && toSubscriber(row);
}

export async function findSubscriberById(db: Db, id: string): Promise<Subscriber | undefined> {
  const row = await db.selectFrom("subscribers").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toSubscriber(row);
}

/**
 * A subscription from the form, in one statement whatever the address's state, so neither its
 * work nor its time tells who is on the list: a new pending subscriber, or the one already
 * there (in any case); either way marked as asking for a confirmation email, which
 * `listConfirmationRequests` finds. Two requests for one address at once get the same row.
 */
export async function requestSubscription(
  db: Db,
  { email, source, now }: { email: string; source: SubscriberSource; now: string },
): Promise<{ subscriber: Subscriber; created: boolean }> {
  const id = newId();
  const row = await db
    .insertInto("subscribers")
    .values({
      id,
      email: normalizeEmail(email),
      state: "pending",
      source,
      created_at: now,
      confirmation_requested_at: now,
    })
    .onConflict((oc) => oc.expression(address).doUpdateSet({ confirmation_requested_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
  return { subscriber: toSubscriber(row), created: row.id === id };
}

/** Subscribers whose confirmation email is still to be queued, oldest request first. */
export async function listConfirmationRequests(
  db: Db,
  limit: number,
): Promise<{ subscriber: Subscriber; requestedAt: string }[]> {
  const rows = await db
    .selectFrom("subscribers")
    .selectAll()
    .where("confirmation_requested_at", "is not", null)
    .orderBy("confirmation_requested_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ subscriber: toSubscriber(row), requestedAt: row.confirmation_requested_at! }));
}

/** The request is answered, unless the address asked again since (then it waits for the next look). */
export async function clearConfirmationRequest(db: Db, id: string, requestedAt: string): Promise<void> {
  await db
    .updateTable("subscribers")
    .set({ confirmation_requested_at: null })
    .where("id", "=", id)
    .where("confirmation_requested_at", "=", requestedAt)
    .execute();
}

/**
 * Makes the subscriber active if it is in one of `from` (the caller's rule, checked again here so
 * a concurrent unsubscribe wins); true when it changed.
 */
export async function confirmSubscriber(
  db: Db,
  id: string,
  { now, from }: { now: string; from: readonly SubscriberState[] },
): Promise<boolean> {
  if (from.length === 0) return false;
  const result = await db
    .updateTable("subscribers")
    .set({ state: "active", confirmed_at: now, unsubscribed_at: null })
    .where("id", "=", id)
    .where("state", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Unsubscribes once: a second call keeps the first time. True when it changed. */
export async function unsubscribeSubscriber(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("subscribers")
    .set({ state: "unsubscribed", unsubscribed_at: now })
    .where("id", "=", id)
    .where("state", "!=", "unsubscribed")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How many subscribers are in each state, every state named (zero when empty). */
export async function countSubscribersByState(db: Db): Promise<Record<SubscriberState, number>> {
  const rows = await db
    .selectFrom("subscribers")
    .select(["state", sql<number | string>`count(*)`.as("count")])
    .groupBy("state")
    .execute();
  const counts = Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, 0])) as Record<SubscriberState, number>;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/**
 * One page of a state's subscribers, newest first, after `after`: the (state, created_at, id)
 * index walked backwards from the cursor, so a page costs its own rows whatever its depth.
 * `search` matches anywhere in the address, ignoring case (then the walk reads past the rows
 * that do not match).
 */
export async function listSubscribers(
  db: Db,
  { state, search, after, limit }: { state: SubscriberState; search?: string; after?: SubscriberCursor; limit: number },
): Promise<SubscriberPage> {
  let query = db.selectFrom("subscribers").selectAll().where("state", "=", state);
  const needle = search?.trim().toLowerCase();
  if (needle) query = query.where(sql<boolean>`lower(email) like ${`%${escapeLikePattern(needle)}%`} escape '\\'`);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.createdAt, after.id)));
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map(toSubscriber);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : undefined };
}

/**
 * Removes the subscriber for good (a data-protection request); true when there was one. The
 * outbox's finished rows to them lose the address too; a delivery still queued keeps it until
 * it is sent or dropped (a post's is dropped: its subscriber is gone).
 */
export async function deleteSubscriber(db: Db, id: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const subscriber = await trx.selectFrom("subscribers").select("email").where("id", "=", id).executeTakeFirst();
    if (!subscriber) return false;
    // Before the delete: it sets their deliveries' subscriber_id to null.
    await trx
      .updateTable("email_deliveries")
      .set({ to_address: "" })
      .where((eb) => eb.or([eb("subscriber_id", "=", id), eb("to_address", "=", subscriber.email)]))
      .where("state", "in", ["sent", "failed", "cancelled"])
      .execute();
    await trx.deleteFrom("subscribers").where("id", "=", id).execute();
    return true;
  });
}

/** A subscriber as the admin, an import or a CSV gives it; the id is new unless given. */
export type SubscriberRow = Omit<Insertable<SubscribersTable>, "id"> & { id?: string };

/**
 * Adds the subscribers whose address (in any case) or id is not on the list yet, in one
 * statement, and says how many it added; the others are left as they are.
 */
export async function insertSubscribers(db: Db, rows: readonly SubscriberRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto("subscribers")
    .values(rows.map((row) => ({ ...row, id: row.id ?? newId(), email: normalizeEmail(row.email) })))
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .execute();
  return inserted.length;
}

/** Every subscriber after `after`, oldest first: the CSV export's pages. */
export async function listSubscribersForExport(
  db: Db,
  { after, limit }: { after?: SubscriberCursor; limit: number },
): Promise<Subscriber[]> {
  let query = db.selectFrom("subscribers").selectAll();
  if (after) query = query.where((eb) => eb(eb.refTuple("created_at", "id"), ">", eb.tuple(after.createdAt, after.id)));
  const rows = await query.orderBy("created_at").orderBy("id").limit(limit).execute();
  return rows.map(toSubscriber);
}

/** Subscribers active now who joined from `since` (ISO UTC): a range of subscribers_state_created_at. */
export async function countActiveSubscribersSince(db: Db, since: string): Promise<number> {
  const row = await db
    .selectFrom("subscribers")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("state", "=", "active")
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
