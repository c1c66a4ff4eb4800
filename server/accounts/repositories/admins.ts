import type { Kysely } from "kysely";
import { type Role, toWritingView, type WritingView } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../../kernel/db/schema.ts";
import { newId, toIsoString } from "../../kernel/rows.ts";
import { firstFreeSlug, slugFromName } from "../../kernel/slugs.ts";
import type { Author, AuthorLink } from "#domain/account.ts";

export interface AdminAccount {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: string;
  displayName: string;
  role: Role;
  /** Set while enrolling and once enrolled; never shown again after enrolment. */
  totpSecret: string | undefined;
  totpEnabled: boolean;
  totpLastStep: number | undefined;
  /** The author page's address, /author/{slug}. */
  slug: string;
  bio: string;
  /** The hash of the square picture in the media store; empty: none. */
  avatar: string;
  writingView: WritingView;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toAccount(row: {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date | string;
  display_name: string;
  role: string;
  totp_secret: string | null;
  totp_enabled_at: Date | string | null;
  totp_last_step: number | null;
  slug: string;
  bio: string;
  avatar: string;
  writing_view: string;
}): AdminAccount {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: toIsoString(row.created_at),
    displayName: row.display_name,
    role: row.role === "owner" ? "owner" : "editor",
    totpSecret: row.totp_secret ?? undefined,
    totpEnabled: row.totp_enabled_at !== null,
    totpLastStep: row.totp_last_step === null ? undefined : Number(row.totp_last_step),
    slug: row.slug,
    bio: row.bio,
    avatar: row.avatar,
    writingView: toWritingView(row.writing_view),
  };
}

async function isAuthorSlugTaken(db: Kysely<Database>, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom("admins").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The author at /author/{slug}, as readers see them. */
export async function findAuthorBySlug(db: Kysely<Database>, slug: string): Promise<Author | undefined> {
  const row = await db
    .selectFrom("admins")
    .select(["display_name", "slug", "bio", "avatar"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ? { name: row.display_name, slug: row.slug, bio: row.bio, avatar: row.avatar } : undefined;
}

/** The author whose name a byline is, if any (the oldest account of that name). */
export async function findAuthorByName(db: Kysely<Database>, name: string): Promise<Author | undefined> {
  const row = await db
    .selectFrom("admins")
    .select(["display_name", "slug", "bio", "avatar"])
    .where("display_name", "=", name)
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? { name: row.display_name, slug: row.slug, bio: row.bio, avatar: row.avatar } : undefined;
}

/** Every account's name and page, oldest first: a blog has a handful; `limit` bounds the read all the same. */
export async function listAuthorLinks(db: Kysely<Database>, limit: number): Promise<AuthorLink[]> {
  const rows = await db
    .selectFrom("admins")
    .select(["display_name", "slug"])
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ name: row.display_name, slug: row.slug }));
}

/**
 * The page address and bio an account shows readers. A slug another account has is
 * refused (SLUG_TAKEN); the unique index keeps two saves at once from both taking it.
 */
export async function updateAuthorProfile(
  db: Kysely<Database>,
  id: string,
  profile: { slug: string; bio: string },
): Promise<void> {
  if (await isAuthorSlugTaken(db, profile.slug, id)) {
    throw new DomainError("SLUG_TAKEN", "Another author already uses this address");
  }
  await db.updateTable("admins").set({ slug: profile.slug, bio: profile.bio }).where("id", "=", id).execute();
}

/** The hash of the account's new picture in the media store; empty removes it. */
export async function updateAvatar(db: Kysely<Database>, id: string, avatar: string): Promise<void> {
  await db.updateTable("admins").set({ avatar }).where("id", "=", id).execute();
}

export async function updateWritingView(db: Kysely<Database>, id: string, view: WritingView): Promise<void> {
  await db.updateTable("admins").set({ writing_view: view }).where("id", "=", id).execute();
}

export async function findAdminByEmail(db: Kysely<Database>, email: string): Promise<AdminAccount | undefined> {
  const row = await db.selectFrom("admins").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAdminById(db: Kysely<Database>, id: string): Promise<AdminAccount | undefined> {
  const row = await db.selectFrom("admins").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

/** The one "does the blog have an admin yet" question: it decides whether the setup link works. */
export async function adminExists(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom("admins").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A page of accounts, oldest first (the owner of a new blog comes first). */
export async function listAdmins(
  db: Kysely<Database>,
  { limit, offset }: { limit: number; offset: number },
): Promise<AdminAccount[]> {
  const rows = await db
    .selectFrom("admins")
    .selectAll()
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toAccount);
}

/**
 * A new account. The first account of a blog is its owner; every later one an editor,
 * whatever the caller asked, so the one-owner rule never depends on the caller.
 */
export async function insertAdmin(
  db: Kysely<Database>,
  fields: { email: string; passwordHash: string; createdAt: string; displayName?: string },
): Promise<AdminAccount> {
  const id = newId();
  const email = normaliseEmail(fields.email);
  const displayName = fields.displayName ?? (email.split("@")[0] || "User");
  const role: Role = (await adminExists(db)) ? "editor" : "owner";
  const slug = await firstFreeSlug(slugFromName(displayName), (candidate) => isAuthorSlugTaken(db, candidate));
  await db
    .insertInto("admins")
    .values({
      id,
      email,
      password_hash: fields.passwordHash,
      created_at: fields.createdAt,
      display_name: displayName,
      role,
      slug,
    })
    .execute();
  return {
    id,
    email,
    passwordHash: fields.passwordHash,
    createdAt: fields.createdAt,
    displayName,
    role,
    totpSecret: undefined,
    totpEnabled: false,
    totpLastStep: undefined,
    slug,
    bio: "",
    avatar: "",
    writingView: "markdown",
  };
}

/** Sets a new password and ends the account's sessions, except the one that asked (when given). */
export async function updateAdminPassword(
  db: Kysely<Database>,
  id: string,
  passwordHash: string,
  keepSessionHash?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("admins").set({ password_hash: passwordHash }).where("id", "=", id).execute();
    let sessions = trx.deleteFrom("sessions").where("admin_id", "=", id);
    if (keepSessionHash) sessions = sessions.where("id_hash", "!=", keepSessionHash);
    await sessions.execute();
  });
}

export async function updateDisplayName(db: Kysely<Database>, id: string, displayName: string): Promise<void> {
  await db.updateTable("admins").set({ display_name: displayName }).where("id", "=", id).execute();
}

/** Removes an editor; the owner cannot be removed (ownership moves first). Posts keep their author text. */
export async function deleteEditor(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom("admins").where("id", "=", id).where("role", "=", "editor").executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Hands ownership to an editor; the old owner becomes an editor. One transaction, so there is never no owner. */
export async function transferOwnership(db: Kysely<Database>, fromId: string, toId: string): Promise<boolean> {
  return db
    .transaction()
    .execute(async (trx) => {
      const demoted = await trx
        .updateTable("admins")
        .set({ role: "editor" })
        .where("id", "=", fromId)
        .where("role", "=", "owner")
        .executeTakeFirst();
      if (Number(demoted.numUpdatedRows) === 0) return false;
      const promoted = await trx
        .updateTable("admins")
        .set({ role: "owner" })
        .where("id", "=", toId)
        .where("role", "=", "editor")
        .executeTakeFirst();
      if (Number(promoted.numUpdatedRows) === 0) throw new OwnershipTransferAborted();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof OwnershipTransferAborted) return false;
      throw error;
    });
}

class OwnershipTransferAborted extends Error {}

/** Starts (or restarts) enrolment: the secret is kept, but sign-in asks for codes only once confirmed. */
export async function setPendingTotpSecret(db: Kysely<Database>, id: string, secret: string): Promise<void> {
  await db
    .updateTable("admins")
    .set({ totp_secret: secret, totp_enabled_at: null, totp_last_step: null })
    .where("id", "=", id)
    .execute();
}

/** Confirms enrolment with its first accepted step and replaces the recovery codes. */
export async function enableTotp(
  db: Kysely<Database>,
  id: string,
  fields: { enabledAt: string; step: number; recoveryCodeHashes: readonly string[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("admins")
      .set({ totp_enabled_at: fields.enabledAt, totp_last_step: fields.step })
      .where("id", "=", id)
      .execute();
    await trx.deleteFrom("recovery_codes").where("admin_id", "=", id).execute();
    await trx
      .insertInto("recovery_codes")
      .values(fields.recoveryCodeHashes.map((codeHash) => ({ admin_id: id, code_hash: codeHash })))
      .execute();
  });
}

export async function disableTotp(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("admins")
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
      .where("id", "=", id)
      .execute();
    await trx.deleteFrom("recovery_codes").where("admin_id", "=", id).execute();
  });
}

/**
 * Accepts a code's time step only if it is later than the last one accepted, in one
 * statement, so two servers (or two tabs) cannot both accept the same code.
 */
export async function claimTotpStep(db: Kysely<Database>, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable("admins")
    .set({ totp_last_step: step })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Spends a recovery code: true only the first time. */
export async function spendRecoveryCode(db: Kysely<Database>, id: string, codeHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom("recovery_codes")
    .where("admin_id", "=", id)
    .where("code_hash", "=", codeHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countRecoveryCodes(db: Kysely<Database>, id: string): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("admin_id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
