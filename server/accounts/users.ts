import type { Kysely } from "kysely";
import { INVITATION_TTL_MS, type WritingView } from "#domain/account.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../kernel/db/schema.ts";
import * as admins from "./repositories/admins.ts";
import * as invitations from "./repositories/invitations.ts";
import type { AuditLog } from "./audit.ts";
import type { SessionUser } from "./auth.ts";
import { hashPassword, OWASP_SCRYPT_COST, type ScryptCost } from "./passwords.ts";
import { createToken, hashToken } from "../kernel/tokens.ts";
import type { ContentChanges } from "../kernel/content-changes.ts";
import { firstFreeSlug, slugFromName, toSlug } from "../kernel/slugs.ts";
import { makeAvatar, type MediaStore } from "../media/index.ts";

/** Bylines link to author pages by name: a blog's accounts, read at most this many. */
const AUTHOR_LINKS_READ = 200;

/** The Users screen shows this many accounts and invitations a page. */
export const USERS_PAGE_SIZE = 50;

export type InvitationState = "open" | "invalid";

const forbidden = () => new DomainError("FORBIDDEN", "Only the owner can manage users");

/** Accounts and invitations. Every change is the owner's alone, checked here as well as in the route. */
export function createUserService({
  db,
  now,
  audit,
  passwordCost = OWASP_SCRYPT_COST,
  store,
  changes,
}: {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  passwordCost?: ScryptCost;
  /** Where authors' pictures are kept, beside the media library's files. */
  store: MediaStore;
  /** An author's name, address, bio or picture shows on every reader's page that bylines them. */
  changes: ContentChanges;
}) {
  // Every cached reader's page carries "navigation" (app/routes/site/layout.tsx), and bylines
  // link to author pages from any of them.
  const announce = () => changes.publish(["navigation"], "author");
  const actorOf = (user: SessionUser) => ({ id: user.id, label: user.username });
  const requireOwner = (user: SessionUser) => {
    if (user.role !== "owner") throw forbidden();
  };

  async function requireAccount(id: string) {
    const account = await admins.findAdminById(db, id);
    if (!account) throw new DomainError("ACCOUNT_NOT_FOUND", "This account no longer exists");
    return account;
  }

  return {
    async listPage(owner: SessionUser, page: number) {
      requireOwner(owner);
      const rows = await admins.listAdmins(db, { limit: USERS_PAGE_SIZE + 1, offset: (page - 1) * USERS_PAGE_SIZE });
      const pending = await invitations.listOpenInvitations(db, { now: now().toISOString(), limit: USERS_PAGE_SIZE });
      return {
        accounts: rows.slice(0, USERS_PAGE_SIZE).map(({ id, email, displayName, role, totpEnabled, createdAt }) => ({
          id,
          email,
          displayName,
          role,
          totpEnabled,
          createdAt,
        })),
        hasNextPage: rows.length > USERS_PAGE_SIZE,
        invitations: pending,
      };
    },

    /** A new invitation; its link token is returned this once (the database keeps only its hash). */
    async invite(owner: SessionUser, email: string) {
      requireOwner(owner);
      if (await admins.findAdminByEmail(db, email)) {
        throw new DomainError("ACCOUNT_EXISTS", "An account with this email already exists");
      }
      const token = createToken();
      const at = now();
      await invitations.deleteExpiredInvitations(db, at.toISOString());
      const invitation = await invitations.insertInvitation(db, {
        tokenHash: hashToken(token),
        email,
        invitedBy: owner.id,
        createdAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + INVITATION_TTL_MS).toISOString(),
      });
      await audit.record(actorOf(owner), "user-invited", invitation.email);
      return { token, invitation };
    },

    async revokeInvitation(owner: SessionUser, id: string): Promise<boolean> {
      requireOwner(owner);
      const revoked = await invitations.deleteInvitation(db, id);
      if (revoked) await audit.record(actorOf(owner), "invitation-revoked", revoked.email);
      return revoked !== undefined;
    },

    /** The invitation a link opens, if it is still open. */
    async checkInvitation(token: string) {
      if (!token) return undefined;
      return invitations.findOpenInvitation(db, hashToken(token), now().toISOString());
    },

    /** Creates the invited account and spends the link. */
    async acceptInvitation(token: string, displayName: string, password: string) {
      if (!(await this.checkInvitation(token))) {
        throw new DomainError("INVITATION_INVALID", "This invitation link is not valid");
      }
      const passwordHash = await hashPassword(password, passwordCost);
      const result = await invitations.acceptInvitation(db, {
        tokenHash: hashToken(token),
        now: now().toISOString(),
        displayName,
        passwordHash,
      });
      if (result === undefined) throw new DomainError("INVITATION_INVALID", "This invitation link is not valid");
      if (result === "taken") throw new DomainError("ACCOUNT_EXISTS", "An account with this email already exists");
      await audit.record({ id: result.id, label: result.displayName }, "invitation-accepted", result.email);
      return result;
    },

    /** Makes an editor the owner; the owner becomes an editor. */
    async transferOwnership(owner: SessionUser, toId: string): Promise<void> {
      requireOwner(owner);
      const target = await requireAccount(toId);
      if (!(await admins.transferOwnership(db, owner.id, toId))) {
        throw new DomainError("FORBIDDEN", "Ownership can only pass from the owner to an editor");
      }
      await audit.record(actorOf(owner), "ownership-transferred", target.email);
    },

    /** Removes an editor's account and sessions; their posts stay, under the author name they carry. */
    async removeAccount(owner: SessionUser, id: string): Promise<void> {
      requireOwner(owner);
      const target = await requireAccount(id);
      if (!(await admins.deleteEditor(db, id))) {
        throw new DomainError("FORBIDDEN", "The owner's account cannot be removed; transfer ownership first");
      }
      await audit.record(actorOf(owner), "user-removed", target.email);
    },

    async updateDisplayName(user: SessionUser, displayName: string): Promise<void> {
      await admins.updateDisplayName(db, user.id, displayName);
      announce();
    },

    /** The signed-in writer's own account, as the profile form shows it. */
    async readProfile(user: SessionUser) {
      const { displayName, slug, bio, avatar } = await requireAccount(user.id);
      return { displayName, slug, bio, avatar };
    },

    /** The author page's address (blank: made from the display name, `-2`… when taken) and bio. */
    async updateAuthorProfile(user: SessionUser, profile: { slug: string; bio: string }): Promise<void> {
      const account = await requireAccount(user.id);
      const isTaken = async (candidate: string) =>
        candidate !== account.slug && (await admins.findAuthorBySlug(db, candidate)) !== undefined;
      const wanted = toSlug(profile.slug);
      const slug = wanted !== "" ? wanted : await firstFreeSlug(slugFromName(account.displayName), isTaken);
      await admins.updateAuthorProfile(db, user.id, { slug, bio: profile.bio });
      announce();
    },

    /** A new picture, cut square at AVATAR_SIZES and kept in the media store (no library entry, never pruned). */
    async saveAvatar(user: SessionUser, upload: { bytes: Buffer; declaredType: string }): Promise<void> {
      const image = await makeAvatar(upload.bytes, upload.declaredType);
      await store.put(image.hash, image.files);
      await admins.updateAvatar(db, user.id, image.hash);
      announce();
    },

    async removeAvatar(user: SessionUser): Promise<void> {
      await admins.updateAvatar(db, user.id, "");
      announce();
    },

    /** The body's view the writer picked, kept for the next editor they open anywhere. */
    async chooseWritingView(user: SessionUser, view: WritingView): Promise<void> {
      await admins.updateWritingView(db, user.id, view);
    },

    /** The author at /author/{slug}, or undefined. */
    async findAuthor(slug: string) {
      return admins.findAuthorBySlug(db, slug);
    },

    /** The author a post's byline names, or undefined for a name no account has (imported posts). */
    async findAuthorByName(name: string) {
      return admins.findAuthorByName(db, name);
    },

    /** Every account's name and page address: what bylines link with. */
    async listAuthorLinks() {
      return admins.listAuthorLinks(db, AUTHOR_LINKS_READ);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
