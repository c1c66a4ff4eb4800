import type { AddressInfo } from "node:net";
import compression from "compression";
import express, { type Request } from "express";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPageCache,
  inlineScriptHashes,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  tagPage,
} from "./page-cache.ts";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Stands in for the signature check (server/http-page-cache.ts): only `blog_session=signed` is a reader's own cookie. */
const isSignedIn = (req: Request) => /(^|;\s*)blog_session=signed(;|$)/.test(req.get("cookie") ?? "");

/** A server whose pages say how many times they were rendered, behind the page cache. */
async function startSite(maxBytes = 1024 * 1024) {
  const cache = createPageCache({ maxBytes });
  let renders = 0;
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", "default-src 'self';script-src 'self';object-src 'none'");
    next();
  });
  app.use(compression());
  app.use(cache.middleware(isSignedIn));
  app.get("/post/:id", (req, res) => {
    renders += 1;
    tagPage(res, [`post:${req.params.id}`]);
    if (req.query.cookie) res.setHeader("Set-Cookie", "flash=1");
    res
      .type("html")
      .send(
        `<html><body><p>render ${renders} ${"x".repeat(Number(req.query.pad ?? 0))}</p><script>hydrate(${renders})</script></body></html>`,
      );
  });
  app.get("/untagged", (_req, res) => {
    renders += 1;
    res.type("html").send(`<p>render ${renders}</p>`);
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { cache, base, renders: () => renders };
}

describe("page cache", () => {
  it("renders an anonymous page once, then serves it compressed with a strong ETag and 304s", async () => {
    const site = await startSite();
    const first = await fetch(`${site.base}/post/a`);
    const second = await fetch(`${site.base}/post/a`, { headers: { "Accept-Encoding": "br" } });
    expect(await first.text()).toContain("render 1");
    expect(await second.text()).toContain("render 1");
    expect(second.headers.get("content-encoding")).toBe("br");
    expect(second.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    const etag = second.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await fetch(`${site.base}/post/a`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(site.renders()).toBe(1);
  });

  it("makes each encoding once, on the first request that asks for it", async () => {
    const site = await startSite();
    const plain = await fetch(`${site.base}/post/a?pad=4000`, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const bytesBefore = site.cache.stats().bytes;
    const gzip = await fetch(`${site.base}/post/a?pad=4000`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(await gzip.text()).toBe(await plain.text());
    expect(site.cache.stats().bytes).toBeGreaterThan(bytesBefore);
    expect(site.renders()).toBe(1);
  });

  it("with no memory for pages renders every time, still with the page's script hashes and CDN headers", async () => {
    const site = await startSite(0);
    const first = await fetch(`${site.base}/post/a`, { headers: { "Accept-Encoding": "gzip" } });
    const second = await fetch(`${site.base}/post/a`, { headers: { "Accept-Encoding": "gzip" } });
    expect(await second.text()).toContain("render 2");
    expect(first.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    const [hash] = inlineScriptHashes(await first.text());
    expect(first.headers.get("content-security-policy")).toContain(`script-src 'self' ${hash}`);
    expect(site.cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("drops exactly the pages tagged with what changed", async () => {
    const site = await startSite();
    await fetch(`${site.base}/post/a`);
    await fetch(`${site.base}/post/b`);
    site.cache.invalidate(["post:a"]);
    expect(await (await fetch(`${site.base}/post/a`)).text()).toContain("render 3");
    expect(await (await fetch(`${site.base}/post/b`)).text()).toContain("render 2");
  });

  it("never serves or stores a page for a signed-in admin, and says private, no-store", async () => {
    const site = await startSite();
    const admin = await fetch(`${site.base}/post/a`, { headers: { Cookie: "theme=dark; blog_session=signed" } });
    expect(admin.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(await (await fetch(`${site.base}/post/a`)).text()).toContain("render 2");
    expect(await (await fetch(`${site.base}/post/a`, { headers: { Cookie: "blog_session=signed" } })).text()).toContain(
      "render 3",
    );
  });

  it("serves a reader whose cookie is not their own (it does not verify) the cached page, public", async () => {
    const site = await startSite();
    await fetch(`${site.base}/post/a`);
    for (const cookie of ["blog_session=x", "blog_session=", "theme=dark; blog_session=forged.sig"]) {
      const junk = await fetch(`${site.base}/post/a`, { headers: { Cookie: cookie } });
      expect(await junk.text(), cookie).toContain("render 1");
      expect(junk.headers.get("cache-control"), cookie).toBe(PUBLIC_CACHE_CONTROL);
      expect(junk.headers.get("set-cookie"), cookie).toBeNull();
    }
    expect(site.cache.stats().hits).toBe(3);
  });

  it("does not keep responses that set a cookie, nor pages no loader marked cacheable", async () => {
    const site = await startSite();
    const withCookie = await fetch(`${site.base}/post/a?cookie=1`);
    expect(withCookie.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
    await fetch(`${site.base}/post/a?cookie=1`);
    await fetch(`${site.base}/untagged`);
    await fetch(`${site.base}/untagged`);
    expect(site.renders()).toBe(4);
  });

  it("allows exactly the page's own inline scripts in its CSP", async () => {
    const site = await startSite();
    const response = await fetch(`${site.base}/post/a`);
    const csp = response.headers.get("content-security-policy")!;
    const [hash] = inlineScriptHashes(await response.text());
    expect(csp).toContain(`script-src 'self' ${hash}`);
    expect(csp).not.toContain("unsafe-inline");
    expect(inlineScriptHashes("<script>alert(1)</script>")).not.toContain(hash);
  });

  it("keeps within its byte budget by dropping the least recently used pages", async () => {
    const site = await startSite(64 * 1024);
    for (const id of ["a", "b", "c", "d", "e", "f"]) await fetch(`${site.base}/post/${id}?pad=12000`);
    expect(site.cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    const rendersBefore = site.renders();
    await fetch(`${site.base}/post/f?pad=12000`);
    await fetch(`${site.base}/post/a?pad=12000`);
    expect(site.renders()).toBe(rendersBefore + 1);
  });
});
