import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { FetchError } from "@fedify/fedify";
import { isDomainError } from "#domain/errors.ts";
import { isPostId } from "#domain/post.ts";
import type { BlogFederation } from "./federation.ts";
import { INBOX_MAX_BODY_BYTES, refuseTooLarge } from "../kernel/http-body-limits.ts";

/** The addresses Fedify answers (docs/decisions/0015-fediverse.md); a reverse proxy must pass them. */
const FEDERATION_PATH = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)$|nodeinfo\/|ap\/)/;
/** A post's page, which answers its Article to a client asking for ActivityPub. */
const POST_PAGE = /^\/blog\/[^/]+$/;
const ACTIVITY_TYPES = /application\/activity\+json|application\/ld\+json/i;

/** Where activities are delivered: the blog's own inbox and the shared one (server/fediverse/inbox.ts). */
const INBOX_PATH = /^\/ap\/(?:users\/[^/]+\/)?inbox$/;
const COLLECTION_PATH = /^\/ap\/users\/[^/]+\/(followers|outbox|following)$/;
const ARTICLE_PATH = /^\/ap\/posts\/([^/]*)$/;
/**
 * The cursors each collection hands out (server/fediverse/actor.ts, articles.ts): the followers
 * a follower's id after the first page's "", the outbox a page number, the following none. Any
 * other is refused before it reaches a query.
 */
const CURSOR_FORMS: Record<string, RegExp | undefined> = {
  followers: /^(?:[A-Za-z0-9_-]{16})?$/,
  outbox: /^[1-9][0-9]{0,8}$/,
  following: undefined,
};

export interface FederationMountOptions {
  fediverse: Pick<BlogFederation, "fetch" | "inboxGate">;
  /** services.fediverse: the id of the public post at a page's address; undefined for none. */
  posts: { findPublicPostId(url: URL): Promise<string | undefined> };
  /** SITE_URL: requests reach Fedify at this origin, the one remote servers signed for and ids use. */
  siteUrl: string;
}

/**
 * Hands Fedify the fediverse's requests, ahead of the page cache and React Router: WebFinger,
 * NodeInfo, the actor, its collections, Articles and the inboxes, and a post's page asked for
 * as ActivityPub. What Fedify does not answer (no route, or a browser's Accept) goes on to the
 * pages. A cursor or post id the blog never hands out is refused (400). An inbox POST passes the
 * inbox's door first (server/fediverse/inbox-gate.ts): its address's budget (429), its size
 * (INBOX_MAX_BODY_BYTES, 413), its depth and JSON (400), its signature and signer (401) and its
 * server's budget (429).
 */
export function serveFederation({ fediverse, posts, siteUrl }: FederationMountOptions): RequestHandler {
  const origin = new URL(siteUrl).origin;
  return (req, res, next) => {
    const post = POST_PAGE.exec(req.path);
    if (post) {
      // Shared caches must keep the page and the Article apart.
      res.vary("Accept");
      if (!ACTIVITY_TYPES.test(req.get("accept") ?? "") || (req.method !== "GET" && req.method !== "HEAD")) {
        return next();
      }
      return void posts
        .findPublicPostId(new URL(req.path, origin))
        .then((id) => (id === undefined ? next() : answer(req, res, next, `/ap/posts/${encodeURIComponent(id)}`)))
        .catch(next);
    }
    if (!FEDERATION_PATH.test(req.path)) return next();
    const malformed = malformedAddress(req.path, new URL(req.originalUrl, origin).searchParams);
    if (malformed) return void res.status(400).type("text/plain").send(malformed);
    // A declared length over the limit is refused unread; a body in chunks is cut off at it.
    if (Number(req.get("content-length") ?? 0) > INBOX_MAX_BODY_BYTES) return void tooLarge(res);
    if (req.method === "POST" && INBOX_PATH.test(req.path)) return void receive(req, res, next).catch(next);
    answer(req, res, next, req.originalUrl).catch(next);
  };

  async function receive(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    const gate = fediverse.inboxGate;
    const crowded = await gate.admitAddress(req.ip ?? "unknown");
    if (crowded) return send(res, crowded);
    const body = await readBody(req);
    if (!body) return tooLarge(res);
    const request = toFetchRequest(req, new URL(req.originalUrl, origin), body);
    const refusal = await gate.admitActivity(request, body);
    if (refusal) return send(res, refusal);
    await answer(req, res, next, req.originalUrl, body);
  }

  async function answer(req: ExpressRequest, res: ExpressResponse, next: NextFunction, target: string, body?: Buffer) {
    const request = toFetchRequest(req, new URL(target, origin), body);
    let passed = false;
    const pass = async () => {
      passed = true;
      return new Response(null, { status: 404 });
    };
    let response: Response;
    try {
      response = await fediverse.fetch(request, { onNotFound: pass, onNotAcceptable: pass });
    } catch (error) {
      const refusal = failureAnswer(error, body !== undefined);
      if (!refusal) throw error;
      response = refusal;
    }
    if (passed) return next();
    await send(res, response);
  }
}

/**
 * What a failure inside Fedify is answered: the database out of reach is a 503; for an activity
 * already verified, a JSON-LD document or key its sender's world could not give (an unreachable
 * context, invalid JSON-LD) is the sender's fault, a 400. Anything else is a bug (undefined).
 */
function failureAnswer(error: unknown, verifiedActivity: boolean): Response | undefined {
  if (isDomainError(error, "DATABASE_UNAVAILABLE")) {
    return new Response("Service Unavailable: try again later.", {
      status: 503,
      headers: { "content-type": "text/plain", "retry-after": String(error.retryAfterSeconds ?? 5) },
    });
  }
  if (!verifiedActivity || isDomainError(error)) return undefined;
  const remote =
    error instanceof FetchError ||
    error instanceof SyntaxError ||
    // fetch's own failure (refused, reset, unresolvable): any other TypeError is a bug of ours.
    (error instanceof TypeError && error.message === "fetch failed") ||
    (error instanceof Error && error.name.startsWith("jsonld."));
  return remote
    ? new Response("The activity could not be read.", { status: 400, headers: { "content-type": "text/plain" } })
    : undefined;
}

/** Why the address names nothing the blog hands out, or undefined when it may. */
function malformedAddress(path: string, query: URLSearchParams): string | undefined {
  const collection = COLLECTION_PATH.exec(path)?.[1];
  if (collection) {
    const form = CURSOR_FORMS[collection];
    if (query.getAll("cursor").some((cursor) => !form?.test(cursor))) {
      return `The ${collection} collection has no page at this cursor.`;
    }
  }
  const article = ARTICLE_PATH.exec(path)?.[1];
  if (article !== undefined) {
    let id: string | undefined;
    try {
      id = decodeURIComponent(article);
    } catch {
      id = undefined;
    }
    if (id === undefined || !isPostId(id)) return "This is not a post's address.";
  }
  return undefined;
}

async function send(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  // Set, not appended: Express may have set one already (Content-Type); Vary adds to ours.
  response.headers.forEach((value, name) => (name === "vary" ? res.vary(value) : res.setHeader(name, value)));
  res.end(Buffer.from(await response.arrayBuffer()));
}

function tooLarge(res: ExpressResponse): void {
  refuseTooLarge(res, `activities may be at most ${INBOX_MAX_BODY_BYTES / 1024} KB`);
}

/** The request as Fedify takes it, with the body already read (an inbox POST) or none. */
function toFetchRequest(req: ExpressRequest, url: URL, body?: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const withBody = body !== undefined && req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, { method: req.method, headers, body: withBody ? new Uint8Array(body) : undefined });
}

function readBody(req: ExpressRequest): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      // A declared length was checked before; a body sent in chunks stops here. The rest is
      // read and dropped, so the client hears the 413 rather than a broken connection.
      if (size > INBOX_MAX_BODY_BYTES) {
        req.off("data", onData).off("end", onEnd).resume();
        resolve(undefined);
      }
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData).on("end", onEnd).on("error", reject);
  });
}
