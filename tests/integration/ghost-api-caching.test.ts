// What a CDN in front of the blog may do with each Ghost API answer: every Content API list is
// public but checked back each time (an ETag makes the check a 304), identical for every origin
// (so nothing but the encoding varies); every Admin API answer and every refusal is stored nowhere.
import GhostAdminAPI from "@tryghost/admin-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

describe.each(testDialects())("the Ghost APIs' caching headers on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin("owner@example.com", "a long enough password");
  });
  afterEach(async () => {
    await blog?.close();
  });

  it("lets a CDN keep public lists only while it checks back, and keeps admin answers and refusals out of every cache", async () => {
    await blog.services.posts.createPost(buildPostInput({ published: true, tags: ["Cached"] }), TEST_WRITER);
    const { keys } = blog.services.apps;
    const key = await keys.createKey(await keys.findHolder(), { name: "CDN test", scope: "publish" });

    for (const list of ["posts", "pages", "tags", "authors", "settings"]) {
      const url = `${blog.siteUrl}/ghost/api/content/${list}/?key=${key.contentKey}`;
      const answer = await fetch(url, { headers: { Origin: "https://front.example", "Accept-Encoding": "gzip" } });
      expect(answer.status, list).toBe(200);
      expect(answer.headers.get("cache-control"), list).toBe("public, max-age=0, must-revalidate");
      expect(answer.headers.get("access-control-allow-origin"), list).toBe("*");
      expect(answer.headers.get("vary") ?? "", list).not.toMatch(/origin|cookie|authorization/i);
      const etag = answer.headers.get("etag");
      expect(etag, list).toBeTruthy();
      // As a CDN revalidates (fetch() would otherwise add "no-cache", which asks for the whole answer).
      const again = await fetch(url, { headers: { "If-None-Match": etag!, "Cache-Control": "max-age=0" } });
      expect([again.status, again.headers.get("etag")], list).toEqual([304, etag]);
    }
    const refused = await fetch(`${blog.siteUrl}/ghost/api/content/posts/?key=${"0".repeat(26)}`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");

    const seen: (string | null)[] = [];
    const makeRequest = async (options: { url: string; method: string; headers: Record<string, string> }) => {
      const response = await fetch(options.url, { method: options.method, headers: options.headers });
      seen.push(response.headers.get("cache-control"));
      return response.json();
    };
    const watched = new GhostAdminAPI({ url: blog.siteUrl, key: key.adminKey, version: "v5.0", makeRequest });
    await watched.posts.browse();
    await watched.tags.browse();
    await watched.site.read();
    expect(seen).toEqual(["no-store", "no-store", "no-store"]);
  });
});
