// Anonymous readers' pages, rendered once and then served from memory, already compressed.
// Why and how it stays exact: docs/decisions/0005-flat-cost-and-page-cache.md.
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import type { ContentTag } from "./content-changes.ts";

/** Browsers revalidate every time (max-age=0); a CDN may keep a page a minute and serve it stale while refreshing. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/** Tags a route loader puts on its page (res.locals), so a write invalidates exactly the pages that show it. */
export interface PageTags {
  add(tag: ContentTag | "static"): void;
}

interface Entry {
  key: string;
  status: number;
  contentType: string;
  csp: string | undefined;
  etag: string;
  identity: Buffer;
  /** Each encoding is made the first time a reader asks for it, so a miss compresses once, not twice. */
  gzip: Buffer | undefined;
  brotli: Buffer | undefined;
  tags: Set<string>;
  /** When the page changes by itself (a scheduled post going live); undefined: only a write changes it. */
  expiresAt: number | undefined;
  bytes: number;
}

export interface PageCacheOptions {
  maxBytes: number;
  now?: () => number;
}

/**
 * Whether the request carries a cookie that makes a reader's pages their own (a session, their
 * own held comments) as this server signed it: such requests bypass the cache. A cookie that
 * does not verify is anyone's to invent, so its reader is anonymous (server/http-page-cache.ts).
 */
export type IsPersonalRequest = (req: Request) => boolean;

/** sha256 sources of every inline <script> in the page, for a CSP that needs no per-request nonce. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1] ?? "") || match[2] === "") continue;
    hashes.add(`'sha256-${createHash("sha256").update(match[2]!).digest("base64")}'`);
  }
  return [...hashes];
}

/** The response's CSP with the page's inline-script hashes added to script-src. */
function withScriptHashes(csp: string, hashes: string[]): string {
  if (hashes.length === 0) return csp;
  return csp.replace(/(^|;)\s*script-src([^;]*)/, (_all, start: string, sources: string) => {
    return `${start}script-src${sources} ${hashes.join(" ")}`;
  });
}

function isHtml(contentType: string): boolean {
  return contentType.startsWith("text/html");
}

function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | undefined {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (/\bbr\b/.test(accepted)) return "br";
  if (/\bgzip\b/.test(accepted)) return "gzip";
  return undefined;
}

/**
 * Moderate levels: a page is compressed on the request that missed, while the reader waits and
 * other requests queue behind it; gzip 9 and brotli 9 together cost about 20 ms on a list page.
 */
function compress(identity: Buffer, encoding: "br" | "gzip"): Buffer {
  if (encoding === "gzip") return gzipSync(identity, { level: 6 });
  return brotliCompressSync(identity, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
  });
}

const ENTRY_OVERHEAD_BYTES = 512;

function entryBytes(entry: Entry): number {
  const encoded = (entry.gzip?.length ?? 0) + (entry.brotli?.length ?? 0);
  return entry.identity.length + encoded + entry.key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

export function createPageCache({ maxBytes, now = Date.now }: PageCacheOptions) {
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  const entries = new Map<string, Entry>();
  let usedBytes = 0;
  let hits = 0;
  let misses = 0;

  const remove = (entry: Entry) => {
    entries.delete(entry.key);
    usedBytes -= entry.bytes;
  };

  const store = (entry: Entry) => {
    if (entry.bytes > maxBytes / 4) return;
    const previous = entries.get(entry.key);
    if (previous) remove(previous);
    entries.set(entry.key, entry);
    usedBytes += entry.bytes;
    evictOverBudget();
  };

  const evictOverBudget = () => {
    for (const oldest of entries.values()) {
      if (usedBytes <= maxBytes) break;
      remove(oldest);
    }
  };

  const encoded = (entry: Entry, encoding: "br" | "gzip"): Buffer => {
    const field = encoding === "br" ? "brotli" : "gzip";
    const cached = entry[field];
    if (cached) return cached;
    const body = compress(entry.identity, encoding);
    entry[field] = body;
    const bytes = entryBytes(entry);
    if (entries.get(entry.key) === entry) {
      usedBytes += bytes - entry.bytes;
      entry.bytes = bytes;
      evictOverBudget();
    } else {
      entry.bytes = bytes;
    }
    return body;
  };

  const send = (req: Request, res: Response, entry: Entry, end: (body?: Buffer) => void) => {
    res.status(entry.status);
    res.setHeader("Content-Type", entry.contentType);
    if (entry.csp) res.setHeader("Content-Security-Policy", entry.csp);
    res.setHeader("ETag", entry.etag);
    res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
    // Appended: a post's page also varies by Accept (server/fediverse/http.ts).
    res.vary("Accept-Encoding");
    if (req.get("if-none-match") === entry.etag) {
      res.status(304);
      end();
      return;
    }
    const encoding = preferredEncoding(req.get("accept-encoding"));
    const body = encoding ? encoded(entry, encoding) : entry.identity;
    if (encoding) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", String(body.length));
    end(req.method === "HEAD" ? undefined : body);
  };

  const middleware =
    (isPersonal: IsPersonalRequest): RequestHandler =>
    (req, res, next) => {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      const anonymous = !isPersonal(req);
      const key = req.originalUrl;
      if (anonymous) {
        const cached = entries.get(key);
        if (cached && (cached.expiresAt === undefined || cached.expiresAt > now())) {
          hits += 1;
          entries.delete(key);
          entries.set(key, cached);
          send(req, res, cached, (body) => res.end(body));
          return;
        }
        if (cached) remove(cached);
        misses += 1;
      }

      // Hold the whole response: the CSP hashes depend on the page, and a stored page needs every byte.
      const chunks: Buffer[] = [];
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      const writeHead = res.writeHead.bind(res);
      const restore = () => {
        res.write = write;
        res.end = end;
        res.writeHead = writeHead;
      };
      const collect = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === "function") return;
        chunks.push(
          Buffer.isBuffer(chunk)
            ? chunk
            : typeof chunk === "string"
              ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
              : Buffer.from(chunk as Uint8Array),
        );
      };
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        res.statusCode = status;
        const headers = rest.find((value) => typeof value === "object" && value !== null);
        if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value as string);
        return res;
      }) as typeof res.writeHead;
      res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
        collect(chunk, encoding);
        const done = [encoding, callback].find((value) => typeof value === "function") as (() => void) | undefined;
        done?.();
        return true;
      }) as typeof res.write;
      res.end = ((chunk?: unknown, encoding?: unknown) => {
        collect(chunk, encoding);
        restore();
        const identity = Buffer.concat(chunks);
        const contentType = String(res.getHeader("Content-Type") ?? "");
        let csp = res.getHeader("Content-Security-Policy") as string | undefined;
        if (csp && isHtml(contentType)) {
          csp = withScriptHashes(csp, inlineScriptHashes(identity.toString("utf8")));
          res.setHeader("Content-Security-Policy", csp);
        }
        const tags = res.locals.pageTags as Set<string> | undefined;
        const cacheable =
          anonymous && res.statusCode === 200 && !res.getHeader("Set-Cookie") && tags !== undefined && tags.size > 0;
        if (!cacheable) {
          if (!anonymous || res.getHeader("Set-Cookie")) res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
          return end(identity);
        }
        if (maxBytes === 0) {
          // No memory for pages: a CDN in front may still keep them briefly; compression() encodes this one.
          res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
          return end(identity);
        }
        const entry: Entry = {
          key,
          status: res.statusCode,
          contentType,
          csp,
          etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 32)}"`,
          identity,
          gzip: undefined,
          brotli: undefined,
          tags,
          expiresAt: res.locals.pageExpiresAt as number | undefined,
          bytes: 0,
        };
        entry.bytes = entryBytes(entry);
        store(entry);
        send(req, res, entry, (body) => end(body));
        return res;
      }) as typeof res.end;
      res.locals.pageTags = undefined;
      next();
    };

  return {
    /** Serves and stores anonymous readers' pages; `isPersonal` tells a reader's own requests apart. */
    middleware,
    /** Drops every page tagged with one of `tags`; "static" pages only go when the cache is cleared. */
    invalidate(tags: readonly string[]): void {
      for (const entry of [...entries.values()]) {
        if (tags.some((tag) => entry.tags.has(tag))) remove(entry);
      }
    },
    clear(): void {
      entries.clear();
      usedBytes = 0;
    },
    stats() {
      return { entries: entries.size, bytes: usedBytes, hits, misses };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/** For route loaders: mark the page cacheable, with what it shows. */
export function tagPage(res: { locals: Record<string, unknown> }, tags: readonly (ContentTag | "static")[]): void {
  const current = (res.locals.pageTags as Set<string> | undefined) ?? new Set<string>();
  for (const tag of tags) current.add(tag);
  res.locals.pageTags = current;
}
