import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId, toIsoString } from "./posts.ts";

export interface AdminAccount {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toAccount(row: { id: string; email: string; password_hash: string; created_at: Date | string }): AdminAccount {
  return { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: toIsoString(row.created_at) };
}

export async function findAdminByEmail(db: Kysely<Database>, email: string): Promise<AdminAccount | undefined> {
  const row = await db.selectFrom("admins").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAdminById(db: Kysely<Database>, id: string): Promise<AdminAccount | undefined> {
  const row = await db.selectFrom("admins").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function countAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("admins")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertAdmin(
  db: Kysely<Database>,
  fields: { email: string; passwordHash: string; createdAt: string },
): Promise<AdminAccount> {
  const id = newId();
  const email = normaliseEmail(fields.email);
  await db
    .insertInto("admins")
    .values({ id, email, password_hash: fields.passwordHash, created_at: fields.createdAt })
    .execute();
  return { id, email, passwordHash: fields.passwordHash, createdAt: fields.createdAt };
}

export async function updateAdminPassword(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("admins").set({ password_hash: passwordHash }).where("id", "=", id).execute();
    // A new password signs the account out everywhere.
    await trx.deleteFrom("sessions").where("admin_id", "=", id).execute();
  });
}
