// What every repository shares: ids, times as ISO text, and a handle that may be a transaction.
import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./db/schema.ts";

export type Db = Kysely<Database> | Transaction<Database>;

export function toIsoString(value: Date | string): string {
  return new Date(value).toISOString();
}

export function newId(): string {
  return randomBytes(12).toString("base64url");
}

/** Runs `work` in the caller's transaction when given one, else in a transaction of its own. */
export function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}
