// The blog as its own IndieAuth authorization server (https://indieauth.spec.indieweb.org/):
// an app asks with PKCE (S256 only), the signed-in writer consents on an admin screen, the app
// trades the single-use code for a token, and Micropub accepts that token as it does an app
// key's. Codes and tokens are kept by their SHA-256 only. Client metadata is never fetched
// (docs/decisions/0033-micropub-and-indieauth.md): the screen shows the client_id as it is, and
// the redirect address must be on the client_id's own host.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { DomainError } from "#domain/errors.ts";
import {
  INDIEAUTH_AUTHORIZATION_PATH,
  INDIEAUTH_REVOCATION_PATH,
  INDIEAUTH_TOKEN_PATH,
  MICROPUB_SCOPES,
  type MicropubScope,
} from "#domain/micropub.ts";
import type { AuditLog } from "../accounts/index.ts";
import type { Database } from "../kernel/db/schema.ts";
import type { RateLimiter } from "../kernel/rate-limit.ts";
import { hashToken } from "../kernel/tokens.ts";
import type { Writer } from "../posts/index.ts";
import * as indieAuth from "./repositories/indieauth.ts";
import type { MicropubCaller } from "./service.ts";

/** A code is traded within a minute by any client that works; ten is the spec's ceiling. */
const CODE_LIFETIME_MS = 5 * 60_000;
/** Token requests one network may make in ten minutes: a sign-in takes one. */
export const INDIEAUTH_TOKEN_RATE = { maxHits: 30, windowMs: 10 * 60_000 };
/** Requests one token may make a minute, as an app key's (server/apps/service.ts). */
const INDIEAUTH_USE_RATE = { maxHits: 240, windowMs: 60_000 };
/** The most signed-in apps Settings → Apps lists, as it lists keys. */
const SIGNED_IN_LIST_MAX = 200;
/** IndieAuth tokens start so, and app keys' tokens never do: one lookup tells them apart. */
const TOKEN_PREFIX = "ia_";

/** A request refused as OAuth words it (`invalid_request`, `invalid_grant`…), with a sentence for people. */
export class IndieAuthError extends Error {
  override name = "IndieAuthError";
  readonly error: string;
  constructor(error: string, message: string) {
    super(message);
    this.error = error;
  }
}

/** An authorization request once checked: what the consent screen shows and the code is bound to. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: MicropubScope[];
}

function webAddress(value: string | undefined, what: string): URL {
  const url = value && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.hash) {
    throw new IndieAuthError("invalid_request", `${what} must be a web address (http or https, no fragment)`);
  }
  return url;
}

const S256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export function readScopes(scope: string | undefined): MicropubScope[] {
  const asked = new Set((scope ?? "").split(/\s+/));
  return MICROPUB_SCOPES.filter((known) => asked.has(known));
}

export interface IndieAuthDeps {
  db: Kysely<Database>;
  now: () => Date;
  audit: AuditLog;
  rateLimiter: RateLimiter;
  siteUrl: string;
}

export function createIndieAuthService({ db, now, audit, rateLimiter, siteUrl }: IndieAuthDeps) {
  const me = new URL("/", siteUrl).href;
  const issuer = me;

  /** Whither the writer's browser goes back: the redirect address with the answer (and `iss`) added. */
  function redirectWith(redirectUri: string, answer: Record<string, string>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...answer, iss: issuer })) url.searchParams.set(name, value);
    return url.href;
  }

  return {
    me,
    issuer,

    /** The metadata document (IndieAuth §4.1.1), naming every endpoint and what they accept. */
    metadata() {
      return {
        issuer,
        authorization_endpoint: new URL(INDIEAUTH_AUTHORIZATION_PATH, siteUrl).href,
        token_endpoint: new URL(INDIEAUTH_TOKEN_PATH, siteUrl).href,
        revocation_endpoint: new URL(INDIEAUTH_REVOCATION_PATH, siteUrl).href,
        revocation_endpoint_auth_methods_supported: ["none"],
        code_challenge_methods_supported: ["S256"],
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code"],
        scopes_supported: [...MICROPUB_SCOPES],
        authorization_response_iss_parameter_supported: true,
      };
    },

    /** Checks an authorization request's parameters; every refusal is shown to the writer, never redirected. */
    checkRequest(params: Record<string, string | undefined>): AuthorizationRequest {
      if (params.response_type !== "code") {
        throw new IndieAuthError("unsupported_response_type", "response_type must be code");
      }
      const client = webAddress(params.client_id, "client_id");
      const redirect = webAddress(params.redirect_uri, "redirect_uri");
      if (redirect.origin !== client.origin) {
        throw new IndieAuthError(
          "invalid_request",
          "redirect_uri must be on the same host as client_id (this blog does not fetch apps' details)",
        );
      }
      if (params.code_challenge_method !== "S256") {
        throw new IndieAuthError("invalid_request", "PKCE is required: code_challenge_method must be S256");
      }
      if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge ?? "")) {
        throw new IndieAuthError("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");
      }
      if (!params.state) throw new IndieAuthError("invalid_request", "state is required");
      return {
        clientId: client.href,
        redirectUri: redirect.href,
        state: params.state,
        codeChallenge: params.code_challenge!,
        scopes: readScopes(params.scope),
      };
    },

    /** The writer approved: a single-use code, kept hashed, and the address their browser goes back to. */
    async approve(writer: Writer, request: AuthorizationRequest, granted: MicropubScope[]): Promise<string> {
      const code = randomBytes(32).toString("base64url");
      const at = now();
      await indieAuth.deleteExpiredCodes(db, at.toISOString());
      await indieAuth.insertCode(db, {
        codeHash: hashToken(code),
        userId: writer.id!,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scope: granted.join(" "),
        codeChallenge: request.codeChallenge,
        createdAt: at.toISOString(),
        expiresAt: new Date(at.getTime() + CODE_LIFETIME_MS).toISOString(),
      });
      return redirectWith(request.redirectUri, { code, state: request.state });
    },

    deny(request: AuthorizationRequest): string {
      return redirectWith(request.redirectUri, { error: "access_denied", state: request.state });
    },

    /**
     * Trades a code for a token (or, at the authorization endpoint, for the profile alone). The
     * code is spent by the first try, right or wrong, so a verifier cannot be guessed at.
     */
    async redeem(
      params: Record<string, string | undefined>,
      address: string,
      forToken: boolean,
    ): Promise<{ me: string; access_token?: string; token_type?: "Bearer"; scope?: string }> {
      await rateLimiter.consume(`indieauth-token:${address}`, INDIEAUTH_TOKEN_RATE);
      if (params.grant_type !== "authorization_code") {
        throw new IndieAuthError("unsupported_grant_type", "grant_type must be authorization_code");
      }
      const { code, client_id: clientId, redirect_uri: redirectUri, code_verifier: verifier } = params;
      if (!code || !clientId || !redirectUri || !verifier) {
        throw new IndieAuthError("invalid_request", "Send code, client_id, redirect_uri and code_verifier");
      }
      const at = now().toISOString();
      const grant = await indieAuth.claimCode(db, hashToken(code), at);
      if (!grant) throw new IndieAuthError("invalid_grant", "The code is unknown, used already or expired");
      const sameClient =
        URL.canParse(clientId) &&
        URL.canParse(redirectUri) &&
        new URL(clientId).href === grant.clientId &&
        new URL(redirectUri).href === grant.redirectUri;
      if (!sameClient)
        throw new IndieAuthError("invalid_grant", "client_id or redirect_uri is not the one the code was for");
      const expected = Buffer.from(grant.codeChallenge);
      const given = Buffer.from(S256(verifier));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new IndieAuthError("invalid_grant", "code_verifier does not match the code_challenge");
      }
      if (!forToken) return { me };
      if (grant.scope === "") throw new IndieAuthError("invalid_grant", "No scope was granted, so no token is issued");
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
      await db.transaction().execute(async (trx) => {
        await indieAuth.insertToken(trx, {
          id: randomUUID(),
          tokenHash: hashToken(token),
          userId: grant.userId,
          clientId: grant.clientId,
          scope: grant.scope,
          createdAt: at,
        });
        await audit.record(
          { id: grant.userId, label: grant.clientId },
          "app-signed-in",
          `${grant.clientId} (${grant.scope})`,
          trx,
        );
      });
      return { me, access_token: token, token_type: "Bearer", scope: grant.scope };
    },

    /** Revokes a token (RFC 7009): answered alike whether it was known, so nothing is learnt. */
    async revoke(token: string | undefined): Promise<void> {
      if (!token) return;
      await indieAuth.revokeToken(db, hashToken(token), now().toISOString());
    },

    /** The apps signed in as `holder`; the owner's view holds every account's. */
    listSignedInApps(holder: { id: string; role: string }): Promise<indieAuth.SignedInApp[]> {
      return indieAuth.listLiveTokens(db, holder.role === "owner" ? undefined : holder.id, SIGNED_IN_LIST_MAX);
    },

    /** Signs an app out from Settings → Apps: refused from its next request on every server. */
    async signOutApp(holder: { id: string; label: string; role: string }, id: string): Promise<void> {
      const userId = holder.role === "owner" ? undefined : holder.id;
      const client = await indieAuth.revokeTokenById(db, { id, userId }, now().toISOString());
      if (!client) throw new DomainError("APP_KEY_NOT_FOUND", "No such app is signed in");
      await audit.record(holder, "app-key-revoked", `${client} (IndieAuth)`);
    },

    /** Whether a bearer token is one of these (else it may be an app key's). */
    isIndieAuthToken: (token: string) => token.startsWith(TOKEN_PREFIX),

    /** The caller behind a token: read with its account on every request, so a revocation holds at once everywhere. */
    async authenticate(token: string, address: string): Promise<MicropubCaller> {
      const found = await indieAuth.findLiveToken(db, hashToken(token));
      if (!found) {
        await rateLimiter.consume(`indieauth-refused:${address}`, INDIEAUTH_TOKEN_RATE);
        throw new DomainError("APP_KEY_REFUSED", "Unknown or revoked token");
      }
      await rateLimiter.consume(`indieauth-use:${found.id}`, INDIEAUTH_USE_RATE);
      const scopes = new Set(readScopes(found.scope));
      const name = new URL(found.clientId).host;
      return {
        writer: { id: found.userId, label: `${found.userName} via ${name}`, email: found.userEmail },
        appName: name,
        scopes,
        draftsOnly: !scopes.has("create"),
      };
    },
  };
}

export type IndieAuthService = ReturnType<typeof createIndieAuthService>;
