import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { BlogFederation } from "./federation/federation.ts";
import { INBOX_MAX_BODY_BYTES, refuseTooLarge } from "./http-body-limits.ts";

/** The addresses Fedify answers (docs/decisions/0015-fediverse.md); a reverse proxy must pass them. */
const FEDERATION_PATH = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)$|nodeinfo\/|ap\/)/;
/** A post's page, which answers its Article to a client asking for ActivityPub. */
const POST_PAGE = /^\/blog\/[^/]+$/;
const ACTIVITY_TYPES = /application\/activity\+json|application\/ld\+json/i;

export interface FederationMountOptions {
  fediverse: Pick<BlogFederation, "fetch" | "inboxRateLimit">;
  /** services.fediverse: the id of the public post at a page's address; undefined for none. */
  posts: { findPublicPostId(url: URL): Promise<string | undefined> };
  /** SITE_URL: requests reach Fedify at this origin, the one remote servers signed for and ids use. */
  siteUrl: string;
}

/**
 * Hands Fedify the fediverse's requests, ahead of the page cache and React Router: WebFinger,
 * NodeInfo, the actor, its collections, Articles and the inboxes, and a post's page asked for
 * as ActivityPub. What Fedify does not answer (no route, or a browser's Accept) goes on to the
 * pages. Inbox bodies are limited to INBOX_MAX_BODY_BYTES (413), and
 * each remote server's POSTs to a budget (server/federation/inbox.ts, 429 once spent).
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
    // A declared length over the limit is refused unread; a body in chunks is cut off at it.
    if (Number(req.get("content-length") ?? 0) > INBOX_MAX_BODY_BYTES) return void tooLarge(res);
    fediverse.inboxRateLimit(req, res, (error?: unknown) =>
      error ? next(error) : void answer(req, res, next, req.originalUrl).catch(next),
    );
  };

  async function answer(req: ExpressRequest, res: ExpressResponse, next: NextFunction, target: string) {
    const request = await toFetchRequest(req, new URL(target, origin));
    if (!request) return tooLarge(res);
    let passed = false;
    const pass = async () => {
      passed = true;
      return new Response(null, { status: 404 });
    };
    const response = await fediverse.fetch(request, { onNotFound: pass, onNotAcceptable: pass });
    if (passed) return next();
    res.status(response.status);
    // Set, not appended: Express may have set one already (Content-Type); Vary adds to ours.
    response.headers.forEach((value, name) => (name === "vary" ? res.vary(value) : res.setHeader(name, value)));
    res.end(Buffer.from(await response.arrayBuffer()));
  }
}

function tooLarge(res: ExpressResponse): void {
  refuseTooLarge(res, `activities may be at most ${INBOX_MAX_BODY_BYTES / 1024} KB`);
}

/** The request as Fedify takes it; undefined when its body runs past INBOX_MAX_BODY_BYTES. */
async function toFetchRequest(req: ExpressRequest, url: URL): Promise<Request | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers });
  const body = await readBody(req);
  return body && new Request(url, { method: req.method, headers, body: new Uint8Array(body) });
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
