import type { Kysely } from "kysely";
import type { AppKeyInput, AppKeyScope, AppKeySummary, NewAppKey } from "#domain/apps.ts";
import { DomainError } from "#domain/errors.ts";
import type { Database } from "../kernel/db/schema.ts";
import { networkOf, type RateLimiter } from "../kernel/rate-limit.ts";
import type { AuditLog } from "../accounts/index.ts";
import type { Writer } from "../posts/index.ts";
import * as appKeys from "./repositories/app-keys.ts";
import { createCredentials, createSecretBox, hashCredential, readAdminToken } from "./credentials.ts";

/** Who manages keys: an account, the owner seeing and revoking every account's. */
export interface KeyHolder {
  id: string;
  label: string;
  role: string;
}

/** A request an app key let through: the key, and the account it acts as. */
export interface AppCaller {
  keyId: string;
  keyName: string;
  scope: AppKeyScope;
  /** The account the key acts as, named with the app in revisions and the audit log. */
  writer: Writer;
}

/** The most keys a list shows: one per app a writer uses, so a page is plenty. */
const KEY_LIST_MAX = 200;
/** Requests one key may make a minute: an app syncing a folder of posts stays well under. */
export const APP_KEY_RATE = { maxHits: 240, windowMs: 60_000 };
/** Refused credentials one network may send in ten minutes, so guessing keys is slow. */
export const APP_KEY_FAILURE_RATE = { maxHits: 30, windowMs: 10 * 60_000 };
/** Keys one account may make an hour: enough to set up every app, too few to mint keys in bulk. */
export const APP_KEY_CREATE_RATE = { maxHits: 20, windowMs: 60 * 60_000 };
/** A key's last use is written at most this often: a busy app costs a read per request, not a write. */
const LAST_USE_EVERY_MS = 60_000;

export interface AppsServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  rateLimiter: RateLimiter;
  /** SESSION_SECRET (or data/session-secret): seals the Admin API secrets (docs/decisions/0027-app-keys.md). */
  serverSecret: string;
}

export function createAppsService({ db, now, audit, rateLimiter, serverSecret }: AppsServiceDeps) {
  const box = createSecretBox(serverSecret);
  const ownOnly = (holder: KeyHolder) => (holder.role === "owner" ? undefined : holder.id);

  async function refuse(address: string, message: string): Promise<never> {
    await rateLimiter.consume(`app-key-failure:${networkOf(address)}`, APP_KEY_FAILURE_RATE);
    throw new DomainError("APP_KEY_REFUSED", message);
  }

  /** The key's use is counted against its budget and noted (when, from which network). */
  async function admit(key: appKeys.LiveAppKey, address: string): Promise<AppCaller> {
    await rateLimiter.consume(`app-key:${key.id}`, APP_KEY_RATE);
    const at = now();
    await appKeys.recordUse(
      db,
      key.id,
      at.toISOString(),
      networkOf(address),
      new Date(at.getTime() - LAST_USE_EVERY_MS).toISOString(),
    );
    return {
      keyId: key.id,
      keyName: key.name,
      scope: key.scope,
      writer: { id: key.userId, label: `${key.userName} via ${key.name}`, email: key.userEmail },
    };
  }

  return {
    /** A new key acting as `holder`; its credentials are returned this once and kept only hashed or sealed. */
    async createKey(holder: KeyHolder, input: AppKeyInput): Promise<NewAppKey> {
      await rateLimiter.consume(`app-key-create:${holder.id}`, APP_KEY_CREATE_RATE);
      if (await appKeys.isLiveNameTaken(db, input.name)) {
        throw new DomainError("APP_KEY_NAME_TAKEN", "Another app already has this name");
      }
      const credentials = createCredentials();
      await db.transaction().execute(async (trx) => {
        await appKeys.insertAppKey(trx, {
          id: credentials.id,
          name: input.name,
          userId: holder.id,
          scope: input.scope,
          adminSecret: box.seal(credentials.adminSecret),
          contentKeyHash: hashCredential(credentials.contentKey),
          tokenHash: hashCredential(credentials.token),
          createdAt: now().toISOString(),
        });
        await audit.record(holder, "app-key-created", `${input.name} (${input.scope})`, trx);
      });
      return {
        name: input.name,
        scope: input.scope,
        adminKey: `${credentials.id}:${credentials.adminSecret}`,
        contentKey: credentials.contentKey,
        token: credentials.token,
      };
    },

    /** Who a key made from the shell acts as: the account with this email, or the owner. */
    async findHolder(email?: string): Promise<KeyHolder> {
      const holder = await appKeys.findKeyHolder(db, email);
      if (!holder)
        throw new DomainError(
          "ACCOUNT_NOT_FOUND",
          email ? `No account has the email ${email}` : "The blog has no owner yet",
        );
      return holder;
    },

    /** The holder's live keys; the owner's view holds every account's. */
    listKeys(holder: KeyHolder): Promise<AppKeySummary[]> {
      return appKeys.listLiveKeys(db, ownOnly(holder), KEY_LIST_MAX);
    },

    /** Revokes a key by id or name: refused from the next request on, on every server (no cache holds keys). */
    async revokeKey(holder: KeyHolder, match: { id?: string; name?: string }): Promise<string> {
      const revoked = await db.transaction().execute(async (trx) => {
        const found = await appKeys.revokeKey(trx, { ...match, userId: ownOnly(holder) }, now().toISOString());
        if (found) await audit.record(holder, "app-key-revoked", found.name, trx);
        return found;
      });
      if (!revoked) throw new DomainError("APP_KEY_NOT_FOUND", "No such app key");
      return revoked.name;
    },

    /**
     * The caller behind `Authorization: Ghost <jwt>`: the token's key must be live and its
     * account still there (one query, no cache, so a revocation holds at once everywhere), the
     * signature, audience and lifetime right (credentials.ts).
     */
    async authenticateAdmin(authorization: string | undefined, address: string): Promise<AppCaller> {
      const match = /^Ghost\s+(\S+)$/i.exec(authorization?.trim() ?? "");
      if (!match) return refuse(address, "Authorization: Ghost <token> is required");
      const token = readAdminToken(match[1]!);
      if (typeof token === "string") return refuse(address, token);
      const key = await appKeys.findLiveKeyById(db, token.keyId);
      const secret = key ? box.open(key.adminSecret) : undefined;
      if (!key || !secret) return refuse(address, "Unknown or revoked Admin API key");
      const problem = token.verify(secret, Math.floor(now().getTime() / 1000));
      if (problem) return refuse(address, problem);
      return admit(key, address);
    },

    /** The caller behind a Content API key (`?key=`). */
    async authenticateContent(contentKey: string | undefined, address: string): Promise<AppCaller> {
      if (!contentKey || !/^[0-9a-f]{26}$/.test(contentKey)) return refuse(address, "A Content API key is required");
      const key = await appKeys.findLiveKeyByContentHash(db, hashCredential(contentKey));
      if (!key) return refuse(address, "Unknown or revoked Content API key");
      const at = now();
      await appKeys.recordUse(
        db,
        key.id,
        at.toISOString(),
        networkOf(address),
        new Date(at.getTime() - LAST_USE_EVERY_MS).toISOString(),
      );
      return {
        keyId: key.id,
        keyName: key.name,
        scope: key.scope,
        writer: { id: key.userId, label: `${key.userName} via ${key.name}`, email: key.userEmail },
      };
    },

    /**
     * The caller behind a key's bearer token (Micropub's `Authorization: Bearer`, XML-RPC's password): looked up by its
     * hash with its account on every request, so a revoked key is refused at once everywhere.
     */
    async authenticateToken(token: string | undefined, address: string): Promise<AppCaller> {
      if (!token) return refuse(address, "A bearer token is required");
      const key = await appKeys.findLiveKeyByTokenHash(db, hashCredential(token));
      if (!key) return refuse(address, "Unknown or revoked token");
      return admit(key, address);
    },

    /** Every write an app makes is in the audit log, under the account and the app's name. */
    recordWrite(caller: AppCaller, what: string): Promise<void> {
      return audit.record(caller.writer, "app-write", what);
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
