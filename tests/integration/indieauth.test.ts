// IndieAuth against the blog's HTTP server: discovery, the authorization request checked before
// the consent screen, PKCE (S256) at the token endpoint, codes that are single-use and
// short-lived, tokens narrowed to their scopes, and revocation. The writer's consent (the admin
// screen, app/routes/admin/indieauth.tsx) is given here through the same service call it makes.
import { createHash, randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuditLog } from "../../server/accounts/index.ts";
import { createRateLimiter } from "../../server/kernel/rate-limit.ts";
import { createIndieAuthService, type IndieAuthService } from "../../server/micropub/index.ts";
import { testDialects } from "../support/databases.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

const CLIENT = "https://app.example.com/";
const REDIRECT = "https://app.example.com/callback";

describe.each(testDialects())("IndieAuth on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let owner = { id: "", label: "", email: "" };

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin("owner@example.com", "a long enough password");
    const holder = await blog.services.apps.keys.findHolder();
    owner = { id: holder.id, label: holder.label, email: "owner@example.com" };
  });
  afterEach(async () => {
    await blog?.close();
  });

  function pkce() {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  }

  const requestParams = (challenge: string, scope = "create update delete media") => ({
    response_type: "code",
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    state: "a-state",
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope,
    me: blog.siteUrl,
  });

  /** The writer allows the request with every scope asked; the code the app's callback receives. */
  async function consent(
    challenge: string,
    scope?: string,
    service: IndieAuthService = blog.services.micropub.indieAuth,
  ) {
    const request = service.checkRequest(requestParams(challenge, scope));
    const back = new URL(await service.approve(owner, request, request.scopes));
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("a-state");
    expect(back.searchParams.get("iss")).toBe(`${blog.siteUrl}/`);
    return back.searchParams.get("code")!;
  }

  const redeem = (fields: Record<string, string>, path = "/indieauth/token") =>
    fetch(`${blog.siteUrl}${path}`, {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: CLIENT,
        redirect_uri: REDIRECT,
        ...fields,
      }),
    });

  const micropub = (token: string, fields: [string, string][]) =>
    fetch(`${blog.siteUrl}/micropub`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: new URLSearchParams(fields),
    });

  it("publishes its metadata, checks an authorization request before the consent screen, and refuses one without PKCE", async () => {
    const metadata = await (await fetch(`${blog.siteUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: `${blog.siteUrl}/`,
      authorization_endpoint: `${blog.siteUrl}/indieauth/auth`,
      token_endpoint: `${blog.siteUrl}/indieauth/token`,
      code_challenge_methods_supported: ["S256"],
    });
    const { challenge } = pkce();
    const good = await fetch(`${blog.siteUrl}/indieauth/auth?${new URLSearchParams(requestParams(challenge))}`, {
      redirect: "manual",
    });
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toMatch(/^\/admin\/indieauth\?response_type=code&/);
    for (const change of [
      { code_challenge_method: "plain" },
      { code_challenge: "" },
      { redirect_uri: "https://elsewhere.example/callback" },
      { client_id: "not a url" },
      { state: "" },
    ]) {
      const refused = await fetch(
        `${blog.siteUrl}/indieauth/auth?${new URLSearchParams({ ...requestParams(challenge), ...change })}`,
        { redirect: "manual" },
      );
      expect(refused.status, JSON.stringify(change)).toBe(400);
      expect(await refused.text()).toMatch(/^This sign-in request cannot be answered: /);
    }
  });

  it("trades a code and its verifier for a token Micropub accepts; a reused code and a wrong verifier are refused", async () => {
    const { verifier, challenge } = pkce();
    const code = await consent(challenge);
    const answer = await redeem({ code, code_verifier: verifier });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const granted = (await answer.json()) as { access_token: string; token_type: string; scope: string; me: string };
    expect(granted).toMatchObject({
      token_type: "Bearer",
      scope: "create update delete media",
      me: `${blog.siteUrl}/`,
    });
    expect((await micropub(granted.access_token, [["content", "Signed in with IndieAuth"]])).status).toBe(201);

    const reused = await redeem({ code, code_verifier: verifier });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });

    const other = pkce();
    const second = await consent(other.challenge);
    const wrong = await redeem({ code: second, code_verifier: pkce().verifier });
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    // The wrong try spent the code: the right verifier comes too late.
    expect((await redeem({ code: second, code_verifier: other.verifier })).status).toBe(400);
  });

  it("refuses an expired code, and answers the profile alone at the authorization endpoint", async () => {
    const { db } = blog.handle;
    const { verifier, challenge } = pkce();
    const lastHour = createIndieAuthService({
      db,
      now: () => new Date(Date.now() - 60 * 60_000),
      audit: createAuditLog({ db, now: () => new Date() }),
      rateLimiter: createRateLimiter({ db, now: () => new Date(), secret: "test" }),
      siteUrl: blog.siteUrl,
    });
    const stale = await consent(challenge, undefined, lastHour);
    const expired = await redeem({ code: stale, code_verifier: verifier });
    expect(await expired.json()).toMatchObject({ error: "invalid_grant" });

    const fresh = pkce();
    const code = await consent(fresh.challenge, "");
    const profile = await redeem({ code, code_verifier: fresh.verifier }, "/indieauth/auth");
    expect(await profile.json()).toEqual({ me: `${blog.siteUrl}/` });
  });

  it("narrows a draft-scoped token to drafts, and refuses a revoked token at once", async () => {
    const { verifier, challenge } = pkce();
    const code = await consent(challenge, "draft update");
    const { access_token: token } = (await (await redeem({ code, code_verifier: verifier })).json()) as {
      access_token: string;
    };
    const publishing = await micropub(token, [["content", "Publish me"]]);
    expect(publishing.status).toBe(403);
    expect(await publishing.json()).toMatchObject({ error: "insufficient_scope" });
    const draft = await micropub(token, [
      ["content", "A draft"],
      ["post-status", "draft"],
    ]);
    expect(draft.status).toBe(201);
    const image = new FormData();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#36c" } })
      .png()
      .toBuffer();
    image.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "dot.png");
    const upload = await fetch(`${blog.siteUrl}/micropub/media`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: image,
    });
    expect(upload.status).toBe(403);

    const revoked = await fetch(`${blog.siteUrl}/indieauth/revoke`, {
      method: "POST",
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    const after = await fetch(`${blog.siteUrl}/micropub?q=config`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });
});
