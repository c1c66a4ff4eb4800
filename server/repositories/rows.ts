// What every repository shares: ids, times as ISO text, and a handle that may be a transaction.
import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.ts";

export type Db = Kysely<Database> | Transaction<Database>;

export function toIsoString(value: Date | string): string {
  return new Date(value).toISOString();
}

export function newId(): string {
  return randomBytes(12).toString("base64url");
}
