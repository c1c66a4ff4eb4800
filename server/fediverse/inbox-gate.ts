import {
  type DocumentLoader,
  exportSpki,
  type Federation,
  type KvStore,
  kvCache,
  verifyRequestDetailed,
  type VerifyRequestFailureReason,
} from "@fedify/fedify";
import { Activity, type CryptographicKey, isActor, Object as ApObject } from "@fedify/vocab";
import { isDomainError } from "#domain/errors.ts";
import type { FediverseService } from "./service.ts";
import type { RateLimiter, RateLimitPolicy } from "../kernel/rate-limit.ts";

/**
 * Per verified remote server: a busy instance with many of its people replying and liking
 * stays far below it; a server that floods the inbox is turned away.
 */
export const INBOX_RATE_LIMIT: RateLimitPolicy = { maxHits: 300, windowMs: 5 * 60 * 1000 };
/**
 * Per client address, counted before anything is read or fetched: twice a server's budget, so a
 * few servers behind one address still fit, while a sender rotating the servers its signatures
 * name is stopped after this many key fetches.
 */
export const INBOX_ADDRESS_RATE_LIMIT: RateLimitPolicy = { maxHits: 600, windowMs: 5 * 60 * 1000 };
/** Deeper than any real activity nests (a reply's note in its Create is three levels). */
export const INBOX_MAX_DEPTH = 64;

export interface InboxRateLimits {
  address: RateLimitPolicy;
  server: RateLimitPolicy;
}

export interface InboxGateOptions {
  federation: Federation<void>;
  kv: KvStore;
  siteUrl: string;
  /** The blog actor's identifier: key and actor documents are fetched signed as it. */
  identifier: string;
  limiter: RateLimiter;
  fediverse: Pick<FediverseService, "unfollowFrom">;
  rateLimits?: InboxRateLimits;
}

/**
 * What the blog checks before Fedify reads an inbox POST (docs/decisions/0015-fediverse.md, "The
 * inbox's door"): Fedify tries Linked Data Signatures and object proofs, fetching contexts and
 * keys, before the HTTP signature, and trusts a key document's own `owner`. Here the HTTP
 * signature is verified first and the key must be listed by the actor's own document; nothing
 * else is fetched for a request that fails either.
 */
export function createInboxGate(options: InboxGateOptions) {
  const { federation, kv, siteUrl, identifier, limiter, fediverse } = options;
  const rateLimits = options.rateLimits ?? { address: INBOX_ADDRESS_RATE_LIMIT, server: INBOX_RATE_LIMIT };

  /** Fedify's own loaders: its private-address refusal, its contexts, and its document cache. */
  async function loaders() {
    const context = federation.createContext(new URL(siteUrl), undefined);
    // Signed as the blog, as Fedify fetches for its inboxes (servers in authorised-fetch mode ask it).
    const signed = await context.getDocumentLoader({ identifier });
    const documentLoader = kvCache({ loader: signed, kv });
    return { documentLoader, contextLoader: context.contextLoader };
  }

  return {
    /** Counts the POST against its client address, before its body is read: a 429 once spent. */
    async admitAddress(address: string): Promise<Response | undefined> {
      return spend(limiter, `fediverse-inbox:address:${address}`, rateLimits.address, "this address");
    },

    /**
     * Reads, verifies and attributes an activity; undefined hands it on to Fedify. A refusal is
     * answered in plain words: 400 for what cannot be read, 401 for what is not proven to come
     * from its actor, 429 once its server's budget is spent.
     */
    async admitActivity(request: Request, body: Uint8Array): Promise<Response | undefined> {
      if (nestsDeeperThan(body, INBOX_MAX_DEPTH)) {
        return plain(400, `An activity may nest at most ${INBOX_MAX_DEPTH} levels deep.`);
      }
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
      } catch {
        return plain(400, "The activity is not valid JSON.");
      }
      if (typeof json !== "object" || json === null || Array.isArray(json)) {
        return plain(400, "An activity is a JSON object.");
      }
      const { documentLoader, contextLoader } = await loaders();
      const verification = await verifyRequestDetailed(request, { documentLoader, contextLoader });
      if (!verification.verified) {
        return (
          (await forgetGoneActor(fediverse, json, verification.reason)) ??
          plain(401, "The signature could not be verified.")
        );
      }
      let activity: Activity;
      try {
        activity = await Activity.fromJsonLd(json, { documentLoader, contextLoader });
      } catch (error) {
        if (isDomainError(error)) throw error;
        return plain(400, "The activity could not be read as ActivityStreams.");
      }
      const actor = activity.actorId;
      if (!actor) return plain(400, "The activity names no actor.");
      if (!(await actorListsKey(actor, verification.key, { documentLoader, contextLoader }))) {
        return plain(401, "The signer and the actor do not match.");
      }
      return spend(limiter, `fediverse-inbox:${actor.host.toLowerCase()}`, rateLimits.server, "this server");
    },
  };
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

async function spend(limiter: RateLimiter, key: string, policy: RateLimitPolicy, who: string) {
  try {
    await limiter.consume(key, policy);
    return undefined;
  } catch (error) {
    if (!isDomainError(error, "RATE_LIMITED")) throw error;
    const seconds = String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1)));
    return plain(429, `Too many requests from ${who}; try again later.`, { "retry-after": seconds });
  }
}

/**
 * Whether JSON text nests deeper than `max` arrays and objects, counted over its bytes before it
 * is parsed: parsing and JSON-LD expansion recurse, and 2,000 levels overflow the stack.
 */
function nestsDeeperThan(body: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === 0x5c) index += 1;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Whether the actor's own document, fetched from the actor's address, lists the key that signed:
 * the same id and the same public key. A key document's `owner` says nothing on its own (any
 * server can name any actor there), which is what Fedify's check trusts (fedify-dev/fedify#440).
 */
async function actorListsKey(
  actorId: URL,
  key: CryptographicKey,
  loaders: { documentLoader: DocumentLoader; contextLoader: DocumentLoader },
): Promise<boolean> {
  if (!key.id || !key.publicKey) return false;
  try {
    const { document, documentUrl } = await loaders.documentLoader(actorId.href);
    if (new URL(documentUrl).origin !== actorId.origin) return false;
    const actor = await ApObject.fromJsonLd(document, loaders);
    if (!isActor(actor) || actor.id?.href !== actorId.href) return false;
    const signer = await exportSpki(key.publicKey);
    for await (const listed of actor.getPublicKeys({ ...loaders, suppressError: true })) {
      if (listed.id?.href === key.id.href && listed.publicKey && (await exportSpki(listed.publicKey)) === signer) {
        return true;
      }
    }
    return false;
  } catch (error) {
    if (isDomainError(error)) throw error;
    return false;
  }
}

/**
 * A deleted account's server announces the deletion signed with the key it has just deleted, so
 * it cannot be verified: the key's address answers 410 Gone. When that key is the actor's own
 * (its address is the actor's, as `#main-key`) and the actor deletes itself, the account is gone
 * for sure: it stops following, and its server is answered 202 so it stops retrying. Read from
 * the JSON as sent, so nothing is fetched for it; anything else unverified gets 401.
 */
export async function forgetGoneActor(
  fediverse: Pick<FediverseService, "unfollowFrom">,
  json: object,
  reason: VerifyRequestFailureReason,
): Promise<Response | undefined> {
  if (reason.type !== "keyFetchError" || !("status" in reason.result) || reason.result.status !== 410) return;
  const activity = json as { type?: unknown; actor?: unknown; object?: unknown };
  const actor = idOf(activity.actor);
  if (activity.type !== "Delete" || !actor || idOf(activity.object) !== actor) return;
  const keyOwner = new URL(reason.keyId.href);
  keyOwner.hash = "";
  if (keyOwner.href !== actor) return;
  await fediverse.unfollowFrom(actor);
  return new Response(null, { status: 202 });
}

/** An object's id as JSON gives it: the string itself, or an embedded object's `id`. */
function idOf(value: unknown): string | undefined {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : value;
  return typeof id === "string" && URL.canParse(id) ? new URL(id).href : undefined;
}
