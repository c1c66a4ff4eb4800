import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";

const ADMIN = { label: "owner" };

describe.each(testDialects())("the blog as an ActivityPub actor on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  const actorUrl = () => `${blog.siteUrl}/ap/users/blog`;
  const host = () => new URL(blog.siteUrl).host;

  it("is found by WebFinger under its handle, and under a new handle once the owner changes it", async () => {
    const found = await blog.get(`/.well-known/webfinger?resource=acct:blog@${host()}`, "application/jrd+json");
    expect(found.status).toBe(200);
    const jrd = (await found.json()) as { subject: string; links: { rel: string; type?: string; href?: string }[] };
    expect(jrd.subject).toBe(`acct:blog@${host()}`);
    expect(jrd.links).toContainEqual(
      expect.objectContaining({ rel: "self", type: "application/activity+json", href: actorUrl() }),
    );

    const settings = await blog.services.fediverse.settings();
    await blog.services.fediverse.saveSettings({ ...settings, handle: "notes" }, ADMIN);
    const renamed = await blog.get(`/.well-known/webfinger?resource=acct:notes@${host()}`, "application/jrd+json");
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { links: { href?: string }[] }).links).toContainEqual(
      expect.objectContaining({ href: actorUrl() }),
    );
    const old = await blog.get(`/.well-known/webfinger?resource=acct:blog@${host()}`, "application/jrd+json");
    expect(old.status).toBe(404);
  });

  it("describes itself: name, description, links, collections, shared inbox and both keys", async () => {
    await blog.services.siteSettings.update(
      {
        ...(await blog.services.siteSettings.current()),
        title: "Heron Notes",
        description: "Birds & <rivers>",
        aboutUrl: "https://heron.example/about",
        sourceUrl: "https://code.example/heron",
      },
      ADMIN,
    );
    const response = await blog.get("/ap/users/blog");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/activity\+json/);
    const actor = (await response.json()) as Record<string, unknown>;
    expect(actor).toMatchObject({
      id: actorUrl(),
      type: "Person",
      preferredUsername: "blog",
      name: "Heron Notes",
      summary: "<p>Birds &#38; &#60;rivers&#62;</p>",
      url: `${blog.siteUrl}/`,
      inbox: `${actorUrl()}/inbox`,
      outbox: `${actorUrl()}/outbox`,
      followers: `${actorUrl()}/followers`,
      following: `${actorUrl()}/following`,
      endpoints: { sharedInbox: `${blog.siteUrl}/ap/inbox` },
      manuallyApprovesFollowers: false,
      icon: { type: "Image", url: `${blog.siteUrl}/favicon.svg` },
      publicKey: { owner: actorUrl(), publicKeyPem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----/) },
    });
    // Both keys as Multikey; the Ed25519 one (multibase "z6Mk…") signs object integrity proofs.
    expect(actor.assertionMethod).toEqual([
      expect.objectContaining({ type: "Multikey", controller: actorUrl() }),
      expect.objectContaining({
        type: "Multikey",
        controller: actorUrl(),
        publicKeyMultibase: expect.stringMatching(/^z6Mk/),
      }),
    ]);
    expect(actor.attachment).toEqual([
      expect.objectContaining({
        type: "PropertyValue",
        name: "About",
        value: expect.stringContaining("https://heron.example/about"),
      }),
      expect.objectContaining({
        type: "PropertyValue",
        name: "Source",
        value: expect.stringContaining("https://code.example/heron"),
      }),
    ]);
  });

  it("shows the site icon the owner uploaded as its avatar, in PNG, which every fediverse app displays", async () => {
    const png = await sharp({ create: { width: 600, height: 600, channels: 4, background: "#1d6b3a" } })
      .png()
      .toBuffer();
    await blog.services.siteSettings.saveImage("siteIcon", { bytes: png, declaredType: "image/png" }, ADMIN);
    const actor = (await (await blog.get("/ap/users/blog")).json()) as Record<string, unknown>;
    expect(actor.icon).toEqual({ type: "Image", url: `${blog.siteUrl}/icon-512.png`, mediaType: "image/png" });
  });

  it("keeps its keys across restarts: the same public key is served after the federation is made again", async () => {
    const before = ((await (await blog.get("/ap/users/blog")).json()) as { publicKey: { publicKeyPem: string } })
      .publicKey.publicKeyPem;
    const { createBlogFederation } = await import("../../server/fediverse/federation.ts");
    const again = await createBlogFederation({
      db: blog.handle.db,
      dialect: target.dialect,
      siteUrl: blog.siteUrl,
      services: blog.services,
    });
    const response = await again.fetch(
      new Request(`${blog.siteUrl}/ap/users/blog`, { headers: { accept: "application/activity+json" } }),
      {
        onNotFound: async () => new Response(null, { status: 404 }),
        onNotAcceptable: async () => new Response(null, { status: 406 }),
      },
    );
    expect(((await response.json()) as { publicKey: { publicKeyPem: string } }).publicKey.publicKeyPem).toBe(before);
  });

  it("answers NodeInfo 2.1, linked from /.well-known/nodeinfo", async () => {
    await blog.services.posts.createPost(buildPostInput(), TEST_WRITER);
    const links = (await (await blog.get("/.well-known/nodeinfo", "application/json")).json()) as {
      links: { rel: string; href: string }[];
    };
    expect(links.links).toContainEqual(
      expect.objectContaining({
        rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
        href: `${blog.siteUrl}/nodeinfo/2.1`,
      }),
    );
    const nodeInfo = (await (await blog.get("/nodeinfo/2.1", "application/json")).json()) as Record<string, unknown>;
    expect(nodeInfo).toMatchObject({
      version: "2.1",
      software: { name: "inkwell" },
      protocols: ["activitypub"],
      openRegistrations: false,
      usage: { users: { total: 1 }, localPosts: 1 },
    });
  });

  it("serves a public post as an Article, at its object id and at its page for an ActivityPub client", async () => {
    const post = await blog.services.posts.createPost(
      buildPostInput({
        title: "Herons at dawn",
        excerpt: "They wait.",
        content: '<p>See <a href="/about">about</a> and <img src="/media/abc/640.webp" alt="heron"></p>',
        tags: ["birds", "slow looking"],
        coverImage: "/covers/heron.jpg",
      }),
      TEST_WRITER,
    );
    const objectId = `${blog.siteUrl}/ap/posts/${post.id}`;
    const response = await blog.get(`/ap/posts/${post.id}`);
    expect(response.status).toBe(200);
    const article = (await response.json()) as Record<string, unknown>;
    expect(article).toMatchObject({
      id: objectId,
      type: "Article",
      attributedTo: actorUrl(),
      name: "Herons at dawn",
      summary: "They wait.",
      url: `${blog.siteUrl}/blog/${post.slug}`,
      published: post.createdAt.replace(/\.000Z$/, "Z"),
      to: "as:Public",
      cc: `${actorUrl()}/followers`,
      attachment: { type: "Image", url: `${blog.siteUrl}/covers/heron.jpg`, mediaType: "image/jpeg" },
    });
    expect(article.content).toContain(`href="${blog.siteUrl}/about"`);
    expect(article.content).toContain(`src="${blog.siteUrl}/media/abc/640.webp"`);
    expect(article.tag).toEqual([
      expect.objectContaining({ type: "Hashtag", name: "#birds" }),
      expect.objectContaining({ type: "Hashtag", name: "#slowlooking" }),
    ]);

    const negotiated = await blog.get(
      `/blog/${post.slug}`,
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    );
    expect(negotiated.status).toBe(200);
    expect(((await negotiated.json()) as { id: string }).id).toBe(objectId);
    expect(negotiated.headers.get("vary")).toMatch(/accept/i);

    const page = await blog.get(`/blog/${post.slug}`, "text/html");
    expect(page.headers.get("x-passed-on")).toBe("1");
  });

  it("never serves a draft or a scheduled post, nor lists them in the outbox", async () => {
    const draft = await blog.services.posts.createPost(buildPostInput({ published: false }), TEST_WRITER);
    const scheduled = await blog.services.posts.createPost(
      buildPostInput({ publishAt: "2030-01-01T10:00", publishAtOffset: "" }),
      TEST_WRITER,
    );
    expect(scheduled.publishAt).not.toBeNull();
    for (const post of [draft, scheduled]) {
      expect((await blog.get(`/ap/posts/${post.id}`)).status).toBe(404);
      expect((await blog.get(`/blog/${post.slug}`)).headers.get("x-passed-on")).toBe("1");
    }
    const outbox = (await (await blog.get("/ap/users/blog/outbox")).json()) as { totalItems: number };
    expect(outbox.totalItems).toBe(0);
  });

  it("pages through the public posts in its outbox, newest first, with their count", async () => {
    const posts = [];
    for (let index = 0; index < 22; index += 1) {
      blog.clock.advance(60_000);
      posts.push(await blog.services.posts.createPost(buildPostInput({ title: `Post ${index}` }), TEST_WRITER));
    }
    const outbox = (await (await blog.get("/ap/users/blog/outbox")).json()) as { totalItems: number; first: string };
    expect(outbox.totalItems).toBe(22);
    const first = (await (await blog.get(outbox.first)).json()) as {
      orderedItems: { type: string; object: { name: string } }[];
      next: string;
    };
    expect(first.orderedItems).toHaveLength(20);
    expect(first.orderedItems[0]).toMatchObject({ type: "Create", object: { name: "Post 21" } });
    const second = (await (await blog.get(first.next)).json()) as { orderedItems: { object: { name: string } }[] };
    expect(second.orderedItems.map((item) => item.object.name)).toEqual(["Post 1", "Post 0"]);
  });

  it("lists its accepted followers in its followers collection, and follows nobody", async () => {
    await blog.services.fediverse.followFrom({
      actorUrl: "https://social.example/users/alice",
      handle: "@alice@social.example",
      inboxUrl: "https://social.example/users/alice/inbox",
      sharedInboxUrl: "https://social.example/inbox",
      followActivityId: "https://social.example/follows/1",
    });
    const followers = (await (await blog.get("/ap/users/blog/followers")).json()) as {
      totalItems: number;
      first: string;
    };
    expect(followers.totalItems).toBe(1);
    const page = (await (await blog.get(followers.first)).json()) as { orderedItems: string[] };
    expect(page.orderedItems).toEqual(["https://social.example/users/alice"]);
    const following = (await (await blog.get("/ap/users/blog/following")).json()) as { totalItems: number };
    expect(following.totalItems).toBe(0);
  });
});

describe.each(testDialects())("the blog's inboxes on $dialect", (target) => {
  const blog = useFederatedBlog(target);
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, blog.siteUrl), {
      method: "POST",
      headers: { "content-type": "application/activity+json", ...headers },
      body,
    });

  it("refuses an activity larger than 256 KB before reading it", async () => {
    const response = await post("/ap/inbox", JSON.stringify({ type: "Create", padding: "x".repeat(300 * 1024) }));
    expect(response.status).toBe(413);
    expect(await blog.handle.db.selectFrom("fedify_messages").select("id").execute()).toEqual([]);
  });

  it("cuts off an activity sent in chunks once it passes 256 KB, with 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 5) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(new URL("/ap/inbox", blog.siteUrl), {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("answers 401 to an unsigned activity and queues nothing", async () => {
    const follow = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: "https://social.example/follows/1",
      type: "Follow",
      actor: "https://social.example/users/mallory",
      object: `${blog.siteUrl}/ap/users/blog`,
    };
    const response = await post("/ap/users/blog/inbox", JSON.stringify(follow));
    expect(response.status).toBe(401);
    // A signature whose key the blog would have to fetch from a private address: never fetched.
    const forged = await post("/ap/inbox", JSON.stringify({ ...follow, actor: `${blog.siteUrl}/users/mallory` }), {
      date: new Date().toUTCString(),
      signature: `keyId="${blog.siteUrl}/users/mallory#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"`,
    });
    expect(forged.status).toBe(401);
    expect(await blog.services.fediverse.countFollowers()).toMatchObject({ accepted: 0, pending: 0 });
  });

  it("turns an address away with 429 and Retry-After once it has sent its share, before reading a byte", async () => {
    // This address has already sent its activities of this window. A server's own share is
    // counted only once its signature verifies (tests/integration/fediverse-inbox-door.test.ts):
    // a name in an unverified signature spends nobody's budget but the sender's.
    for (let hit = 0; hit < 600; hit += 1) {
      await blog.services.rateLimiter.consume("fediverse-inbox:address:127.0.0.1", { maxHits: 600, windowMs: 300_000 });
    }
    const signature = 'keyId="https://busy.example/users/a#main-key",signature="x"';
    const refused = await post("/ap/inbox", "{}", { signature });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toBe("Too many requests from this address; try again later.");
  });
});
