import { type Kysely, sql } from "kysely";

interface SubscriberRow {
  id: string;
  email: string;
  state: string;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}

type Tables = { subscribers: SubscriberRow & { confirmation_requested_at: string | null } };

/**
 * Of the rows one mailbox has under several spellings, the one that says what its reader wants
 * now: an unsubscription made after their last confirmation (their latest word is to leave),
 * else a confirmed (active) row, else a bounced, unsubscribed and pending one, in that order;
 * the oldest row among equals. The others are deleted: their queued post emails are dropped
 * with them (the kept row has its own), and an unsubscribe link in an email sent to one of them
 * answers as it does for any deleted subscriber.
 */
export function keptSpelling(rows: SubscriberRow[]): SubscriberRow {
  const lastConfirmed = rows.reduce(
    (latest, row) => (row.confirmed_at && row.confirmed_at > latest ? row.confirmed_at : latest),
    "",
  );
  const rank = (row: SubscriberRow) => {
    if (row.state === "unsubscribed" && (row.unsubscribed_at ?? "") > lastConfirmed) return 0;
    return ["active", "bounced", "unsubscribed", "pending"].indexOf(row.state) + 1;
  };
  return [...rows].sort(
    (a, b) => rank(a) - rank(b) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  )[0]!;
}

/**
 * Subscribers are told apart by their whole address without case (docs/decisions/0014,
 * "Subscriptions and tokens"): `Reader@x` and `reader@x` are one mailbox for every provider that
 * matters, and counting them apart let one inbox be sent three confirmations a day per spelling.
 * The address stays as typed, for sending. Addresses are ASCII (the form's schema), where SQLite's
 * and PostgreSQL's `lower()` agree. Rows that now collide are merged first (`keptSpelling`).
 *
 * `confirmation_requested_at` marks a subscription whose confirmation email is still to be queued:
 * the form writes it, the same statement for every address, and answers; the outbox worker's
 * tick queues the email (services/subscriptions.ts). Its partial index holds only those rows.
 */
export function subscriberAddressKeySchema() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const typed = db as Kysely<Tables>;
      const collisions = await typed
        .selectFrom("subscribers")
        .select(sql<string>`lower(email)`.as("address"))
        .groupBy(sql`lower(email)`)
        .having(sql`count(*)`, ">", 1)
        .execute();
      for (const { address } of collisions) {
        const rows = await typed
          .selectFrom("subscribers")
          .select(["id", "email", "state", "created_at", "confirmed_at", "unsubscribed_at"])
          .where(sql`lower(email)`, "=", address)
          .execute();
        const kept = keptSpelling(rows);
        await typed
          .deleteFrom("subscribers")
          .where(sql`lower(email)`, "=", address)
          .where("id", "!=", kept.id)
          .execute();
      }
      await db.schema
        .createIndex("subscribers_address")
        .on("subscribers")
        .unique()
        .expression(sql`lower(email)`)
        .execute();
      await db.schema.alterTable("subscribers").addColumn("confirmation_requested_at", "text").execute();
      await db.schema
        .createIndex("subscribers_confirmation_requested")
        .on("subscribers")
        .column("confirmation_requested_at")
        .where(sql.ref("confirmation_requested_at"), "is not", null)
        .execute();
    },
    // Merged spellings are not brought back.
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("subscribers_confirmation_requested").execute();
      await db.schema.alterTable("subscribers").dropColumn("confirmation_requested_at").execute();
      await db.schema.dropIndex("subscribers_address").execute();
    },
  };
}
