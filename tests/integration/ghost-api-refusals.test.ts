// What the Ghost APIs refuse, and how: tokens that are forged, expired, too long-lived or for
// another audience; missing keys; what is not supported. Always Ghost's error shape, never a page.
import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_KEY_CREATE_RATE, APP_KEY_RATE } from "../../server/apps/service.ts";
import { testDialects } from "../support/databases.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A JWT as Ghost's clients make one, with whatever the test changes. */
function sign(
  adminKey: string,
  { header = {}, payload = {}, secret }: { header?: object; payload?: object; secret?: string } = {},
): string {
  const [id, keySecret] = adminKey.split(":") as [string, string];
  const now = Math.floor(Date.now() / 1000);
  const head = part({ alg: "HS256", typ: "JWT", kid: id, ...header });
  const body = part({ iat: now, exp: now + 300, aud: "/admin/", ...payload });
  const signature = createHmac("sha256", Buffer.from(secret ?? keySecret, "hex"))
    .update(`${head}.${body}`)
    .digest("base64url");
  return `${head}.${body}.${signature}`;
}

describe.each(testDialects())("the Ghost APIs' refusals on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let adminKey = "";
  let contentKey = "";

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin("owner@example.com", "a long enough password");
    const { keys } = blog.services.apps;
    ({ adminKey, contentKey } = await keys.createKey(await keys.findHolder(), { name: "Tester", scope: "publish" }));
  });
  afterEach(async () => {
    await blog?.close();
  });

  const admin = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${blog.siteUrl}/ghost/api/admin/${path}`, {
      ...init,
      headers: { ...(token ? { Authorization: `Ghost ${token}` } : {}), ...init.headers },
    });

  async function expectGhostError(response: Response, status: number, type: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { errors: { message: string; type: string }[] };
    expect(body.errors[0]).toMatchObject({ type, message: expect.any(String) });
    return body.errors[0]!;
  }

  it("answers a good token, and refuses one that is missing, forged, unsigned, expired, too long-lived or for another API", async () => {
    const good = await admin("posts/", sign(adminKey));
    expect(good.status).toBe(200);
    expect(good.headers.get("cache-control")).toBe("no-store");

    const now = Math.floor(Date.now() / 1000);
    const refused = {
      missing: undefined,
      forged: sign(adminKey, { secret: "ab".repeat(32) }),
      unsigned: `${part({ alg: "none", typ: "JWT", kid: adminKey.split(":")[0] })}.${part({ iat: now, exp: now + 60, aud: "/admin/" })}.`,
      expired: sign(adminKey, { payload: { iat: now - 900, exp: now - 600 } }),
      tooLong: sign(adminKey, { payload: { iat: now, exp: now + 3600 } }),
      otherAudience: sign(adminKey, { payload: { aud: "/content/" } }),
      unknownKey: sign(`${"0".repeat(24)}:${adminKey.split(":")[1]}`),
      notAToken: "not-a-token",
    };
    for (const [what, token] of Object.entries(refused)) {
      const response = await admin("posts/", token);
      const error = await expectGhostError(response, 401, "UnauthorizedError");
      expect(error.message, what).not.toMatch(/at .*\.ts/);
    }
  });

  it("slows down whoever keeps sending refused credentials", async () => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 31; attempt += 1) last = await admin("posts/", "not-a-token");
    await expectGhostError(last!, 429, "TooManyRequestsError");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("answers a key past its 240 requests a minute with 429 in Ghost's shape, and an account past 20 new keys an hour", async () => {
    const token = sign(adminKey);
    // The beforeEach's key has made none yet; requests one after another, as a syncing app sends them.
    for (let request = 1; request <= APP_KEY_RATE.maxHits; request++) {
      const answer = await admin("posts/?limit=1", token);
      expect(answer.status, `request ${request}`).toBe(200);
      await answer.arrayBuffer();
    }
    await expectGhostError(await admin("posts/?limit=1", token), 429, "TooManyRequestsError");

    const { keys } = blog.services.apps;
    const holder = await keys.findHolder();
    for (let key = 2; key <= APP_KEY_CREATE_RATE.maxHits; key++) {
      await keys.createKey(holder, { name: `App ${key}`, scope: "drafts" });
    }
    await expect(keys.createKey(holder, { name: "One too many", scope: "drafts" })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  it("answers what it does not support, bad JSON and a missing updated_at in Ghost's shape", async () => {
    await expectGhostError(await admin("members/", sign(adminKey)), 501, "NotImplementedError");
    await expectGhostError(
      await admin("posts/", sign(adminKey), {
        method: "POST",
        body: "{ not json",
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "BadRequestError",
    );
    const created = await admin("posts/?source=html", sign(adminKey), {
      method: "POST",
      body: JSON.stringify({ posts: [{ title: "Hello", html: "<p>Hi</p>" }] }),
      headers: { "Content-Type": "application/json" },
    });
    expect(created.status).toBe(201);
    const { posts } = (await created.json()) as { posts: { id: string }[] };
    await expectGhostError(
      await admin(`posts/${posts[0]!.id}/`, sign(adminKey), {
        method: "PUT",
        body: JSON.stringify({ posts: [{ title: "No date" }] }),
        headers: { "Content-Type": "application/json" },
      }),
      409,
      "UpdateCollisionError",
    );
    await expectGhostError(
      await admin("posts/?source=html", sign(adminKey), {
        method: "POST",
        body: JSON.stringify({ posts: [{ title: "No body" }] }),
        headers: { "Content-Type": "application/json" },
      }),
      422,
      "ValidationError",
    );
  });

  it("notes each key's last use by network and audits what an app wrote", async () => {
    await admin("posts/?source=html", sign(adminKey), {
      method: "POST",
      body: JSON.stringify({ posts: [{ title: "Audited", html: "<p>Hi</p>" }] }),
      headers: { "Content-Type": "application/json" },
    });
    const { keys } = blog.services.apps;
    const [listed] = await keys.listKeys(await keys.findHolder());
    expect(listed).toMatchObject({ name: "Tester", lastUsedAddress: "127.0.0.0/24", lastUsedAt: expect.any(String) });
    const { entries } = await blog.services.audit.listPage();
    expect(entries.map((entry) => [entry.action, entry.detail])).toEqual(
      expect.arrayContaining([
        ["app-write", "created “Audited”"],
        ["app-key-created", "Tester (publish)"],
      ]),
    );
    expect(entries.find((entry) => entry.action === "app-write")?.actorLabel).toMatch(/via Tester$/);
  });

  it("keeps the Content API to holders of a key, readable from any site and never cached stale", async () => {
    const content = (query: string) => fetch(`${blog.siteUrl}/ghost/api/content/posts/?${query}`);
    await expectGhostError(await content(""), 401, "UnauthorizedError");
    await expectGhostError(await content(`key=${"0".repeat(26)}`), 401, "UnauthorizedError");
    const answered = await content(`key=${contentKey}`);
    expect(answered.status).toBe(200);
    expect(answered.headers.get("access-control-allow-origin")).toBe("*");
    expect(answered.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    await expectGhostError(await content(`key=${contentKey}&filter=title:x`), 400, "BadRequestError");
    const writeAttempt = await fetch(`${blog.siteUrl}/ghost/api/content/posts/?key=${contentKey}`, {
      method: "DELETE",
    });
    await expectGhostError(writeAttempt, 405, "MethodNotAllowedError");
  });
});
