// Comment emails' own tables (migration 0028): readers' sealed addresses, opt-outs, replies told, digests claimed.
import { sql } from "kysely";
import { type Db, inTransaction } from "../../kernel/rows.ts";

/**
 * Keeps a reader's address for replies to their comment, unless that address unsubscribed
 * before: one statement either way.
 */
export async function insertReplyAddress(
  db: Db,
  { commentId, emailHash, emailSealed, at }: { commentId: string; emailHash: string; emailSealed: string; at: string },
): Promise<void> {
  await db
    .insertInto("comment_reply_addresses")
    .columns(["comment_id", "email_hash", "email_sealed", "created_at"])
    .expression(
      db
        .selectNoFrom([
          sql<string>`${commentId}`.as("comment_id"),
          sql<string>`${emailHash}`.as("email_hash"),
          sql<string>`${emailSealed}`.as("email_sealed"),
          sql<string>`${at}`.as("created_at"),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(eb.selectFrom("comment_reply_optouts").select("email_hash").where("email_hash", "=", emailHash)),
          ),
        ),
    )
    .execute();
}

export interface ReplyAddress {
  commentId: string;
  emailHash: string;
  emailSealed: string;
}

/** The addresses kept for these comments (none for one left without, or whose reader unsubscribed). */
export async function findReplyAddresses(db: Db, commentIds: readonly string[]): Promise<ReplyAddress[]> {
  if (commentIds.length === 0) return [];
  const rows = await db
    .selectFrom("comment_reply_addresses")
    .select(["comment_id", "email_hash", "email_sealed"])
    .where("comment_id", "in", commentIds)
    .execute();
  return rows.map((row) => ({ commentId: row.comment_id, emailHash: row.email_hash, emailSealed: row.email_sealed }));
}

/** How many replies were told to this address since `since`: the daily cap's count. */
export async function countRepliesTold(db: Db, emailHash: string, since: string): Promise<number> {
  const row = await db
    .selectFrom("comment_reply_notices")
    .select((eb) => eb.fn.countAll<string | number>().as("told"))
    .where("email_hash", "=", emailHash)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.told);
}

/** Records that a reply was told; false when it already was (a reply is told once, whoever approves it). */
export async function claimReplyNotice(
  db: Db,
  { replyId, emailHash, at }: { replyId: string; emailHash: string; at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto("comment_reply_notices")
    .values({ reply_id: replyId, email_hash: emailHash, created_at: at })
    .onConflict((oc) => oc.column("reply_id").doNothing())
    .returning("reply_id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Stops every reply email to the address kept for this comment: its hash joins the opt-outs and
 * every comment's copy of it is deleted. False when the comment has no address (any more).
 */
export async function optOutAddressOf(db: Db, commentId: string, at: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const found = await trx
      .selectFrom("comment_reply_addresses")
      .select("email_hash")
      .where("comment_id", "=", commentId)
      .executeTakeFirst();
    if (!found) return false;
    await trx
      .insertInto("comment_reply_optouts")
      .values({ email_hash: found.email_hash, created_at: at })
      .onConflict((oc) => oc.column("email_hash").doNothing())
      .execute();
    await trx.deleteFrom("comment_reply_addresses").where("email_hash", "=", found.email_hash).execute();
    return true;
  });
}

/**
 * The owner's sign-in address: the writer of every post, since posts name their author as text
 * (docs/decisions/0024). Read from the accounts' table in the caller's transaction.
 */
export async function findOwnerAddress(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("admins").select("email").where("role", "=", "owner").executeTakeFirst();
  return row?.email;
}

/**
 * Claims `day`'s digest for this server: true for the one server whose row went in. Answers, too,
 * where the last digest before it stopped (undefined on the first).
 */
export async function claimDigestDay(
  db: Db,
  { day, coveredUntil }: { day: string; coveredUntil: string },
): Promise<{ claimed: boolean; previousUntil: string | undefined }> {
  const previous = await db
    .selectFrom("comment_email_digests")
    .select("covered_until")
    .where("day", "<", day)
    .orderBy("day", "desc")
    .limit(1)
    .executeTakeFirst();
  const inserted = await db
    .insertInto("comment_email_digests")
    .values({ day, covered_until: coveredUntil })
    .onConflict((oc) => oc.column("day").doNothing())
    .returning("day")
    .executeTakeFirst();
  return { claimed: inserted !== undefined, previousUntil: previous?.covered_until };
}

/** Forgets every digest claimed: the next look of a digest switched on again only marks where it starts. */
export async function forgetDigests(db: Db): Promise<void> {
  await db.deleteFrom("comment_email_digests").execute();
}
