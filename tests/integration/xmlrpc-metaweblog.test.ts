// The `xmlrpc` client from npm, unchanged, against the blog's HTTP server: the MetaWeblog calls
// MarsEdit makes, found the way MarsEdit finds them (the page's EditURI, then RSD), and the
// refusals a careless or hostile caller meets.
import GhostAdminAPI from "@tryghost/admin-api";
import sharp from "sharp";
import xmlrpc from "xmlrpc";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

interface Fault extends Error {
  faultCode?: number;
  faultString?: string;
}

describe.each(testDialects())("XML-RPC MetaWeblog on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin("owner@example.com", "a long enough password");
  });
  afterEach(async () => {
    await blog?.close();
  });

  async function newKey(scope: "drafts" | "publish", name = `Mars ${scope}`) {
    const { keys } = blog.services.apps;
    return keys.createKey(await keys.findHolder(), { name, scope });
  }

  function call(method: string, params: unknown[]): Promise<unknown> {
    const client = xmlrpc.createClient({ url: `${blog.siteUrl}/xmlrpc.php` });
    return new Promise((resolve, reject) => {
      client.methodCall(method, params, (error, value) => (error ? reject(error as Error) : resolve(value)));
    });
  }

  async function fault(promise: Promise<unknown>): Promise<Fault> {
    try {
      await promise;
    } catch (error) {
      return error as Fault;
    }
    throw new Error("the call was not refused");
  }

  async function post(body: string) {
    const response = await fetch(`${blog.siteUrl}/xmlrpc.php`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body,
    });
    return { status: response.status, text: await response.text() };
  }

  it("describes itself in RSD, which every page's EditURI names (app/root-feeds.test.tsx)", async () => {
    const rsd = await fetch(`${blog.siteUrl}/rsd.xml`);
    expect(rsd.headers.get("content-type")).toContain("application/rsd+xml");
    const text = await rsd.text();
    expect(text).toContain(
      `<api name="MetaWeblog" blogID="1" preferred="true" apiLink="${blog.siteUrl}/xmlrpc.php" />`,
    );
  });

  it("lists the blog, writes, edits, reads, lists, uploads, files and deletes posts", async () => {
    const { token } = await newKey("publish");
    const blogs = (await call("blogger.getUsersBlogs", ["", "anyone", token])) as Record<string, unknown>[];
    expect(blogs).toEqual([expect.objectContaining({ blogid: "1", url: `${blog.siteUrl}/` })]);
    expect(await call("wp.getUsersBlogs", ["anyone", token])).toEqual(blogs);

    const categories = (await call("metaWeblog.getCategories", ["1", "me", token])) as Record<string, unknown>[];
    const names = categories.map((category) => category.categoryName);
    expect(names.length).toBeGreaterThan(0);

    const id = (await call("metaWeblog.newPost", [
      "1",
      "me",
      token,
      {
        title: "From MarsEdit",
        description: "<p>Written in <em>MarsEdit</em>.</p>",
        categories: [names[0]],
        mt_keywords: "apps, writing",
      },
      false,
    ])) as string;
    const draft = (await call("metaWeblog.getPost", [id, "me", token])) as Record<string, unknown>;
    expect(draft).toMatchObject({ title: "From MarsEdit", post_status: "draft", categories: [names[0]] });
    expect(draft.description).toContain("<em>MarsEdit</em>");
    const stored = await blog.services.posts.getPostForEditing(id);
    expect(stored).toMatchObject({ published: false, category: names[0], tags: ["apps", "writing"], format: "html" });

    expect(
      await call("metaWeblog.editPost", [
        id,
        "me",
        token,
        { title: "Published from MarsEdit", description: "<p>Now out.</p>" },
        true,
      ]),
    ).toBe(true);
    expect(await blog.services.posts.findPublicPost(id)).toMatchObject({ title: "Published from MarsEdit" });
    const revisions = await blog.services.posts.listRevisions(id);
    expect(revisions.length).toBeGreaterThanOrEqual(2);

    const recent = (await call("metaWeblog.getRecentPosts", ["1", "me", token, 5])) as Record<string, unknown>[];
    expect(recent[0]).toMatchObject({ postid: id, post_status: "publish", title: "Published from MarsEdit" });

    const image = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#aa3366" } })
      .png()
      .toBuffer();
    const media = (await call("metaWeblog.newMediaObject", [
      "1",
      "me",
      token,
      { name: "photo.png", type: "image/png", bits: image },
    ])) as {
      url: string;
    };
    expect(media.url).toMatch(new RegExp(`^${blog.siteUrl}/media/[0-9a-f]{64}/`));
    expect((await fetch(media.url)).status).toBe(200);

    expect(await call("blogger.deletePost", ["", id, "me", token, true])).toBe(true);
    const gone = await fault(call("metaWeblog.getPost", [id, "me", token]));
    expect(gone.faultCode).toBe(404);

    const { entries } = await blog.services.audit.listPage();
    expect(entries.filter((entry) => entry.action === "app-write").map((entry) => entry.detail)).toEqual(
      expect.arrayContaining(["created “From MarsEdit”", "uploaded the image photo.png"]),
    );
    expect(entries.find((entry) => entry.action === "app-write")?.actorLabel).toMatch(/via Mars publish$/);
  });

  it("answers bad XML, an entity bomb and an unknown method with faults in plain words, never a 500", async () => {
    const broken = await post("<methodCall><methodName>x</methodName><params>");
    expect(broken.status).toBe(200);
    expect(broken.text).toContain("<fault>");
    expect(broken.text).toContain("not well-formed XML");

    const bomb = await post(`<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<methodCall><methodName>wp.getUsersBlogs</methodName><params><param><value>&lol2;</value></param></params></methodCall>`);
    expect(bomb.status).toBe(200);
    expect(bomb.text).toContain("DOCTYPE or entities");

    const empty = await post("");
    expect(empty.text).toContain("<fault>");
    const notRpc = await post("<html><body>hello</body></html>");
    expect(notRpc.text).toContain("not an XML-RPC methodCall");

    const unknown = await fault(call("wp.deleteEverything", []));
    expect(unknown.faultCode).toBe(-32601);
    // Names every JavaScript object answers to are no methods either.
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const inherited = await fault(call(name, ["1", "me", "a token"]));
      expect({ name, code: inherited.faultCode }).toEqual({ name, code: -32601 });
    }
    expect((await fetch(`${blog.siteUrl}/xmlrpc.php`)).status).toBe(405);
  });

  it("refuses a wrong token and a revoked key", async () => {
    const wrong = await fault(call("wp.getUsersBlogs", ["me", "not-a-token"]));
    expect(wrong.faultCode).toBe(401);
    expect(wrong.faultString).toContain("Unknown or revoked");

    const { token } = await newKey("publish", "Soon revoked");
    await call("wp.getUsersBlogs", ["me", token]);
    const { keys } = blog.services.apps;
    await keys.revokeKey(await keys.findHolder(), { name: "Soon revoked" });
    const revoked = await fault(
      call("metaWeblog.newPost", ["1", "me", token, { title: "Late", description: "<p>x</p>" }, false]),
    );
    expect(revoked.faultCode).toBe(401);
  });

  it("lets a drafts-only key write drafts but never publish, by XML-RPC or by Ghost's Admin API", async () => {
    const key = await newKey("drafts");
    const id = (await call("metaWeblog.newPost", [
      "1",
      "me",
      key.token,
      { title: "Only a draft", description: "<p>Text.</p>" },
      false,
    ])) as string;
    expect((await blog.services.posts.getPostForEditing(id)).published).toBe(false);

    const publishNew = await fault(
      call("metaWeblog.newPost", ["1", "me", key.token, { title: "Straight out", description: "<p>Text.</p>" }, true]),
    );
    expect(publishNew.faultCode).toBe(403);
    expect(publishNew.faultString).toContain("may write drafts only");
    const publishDraft = await fault(
      call("metaWeblog.editPost", [id, "me", key.token, { post_status: "publish" }, true]),
    );
    expect(publishDraft.faultCode).toBe(403);
    expect((await blog.services.posts.getPostForEditing(id)).published).toBe(false);

    const live = await blog.services.posts.createPost(buildPostInput({ published: true }), TEST_WRITER);
    const unpublish = await fault(call("metaWeblog.editPost", [live.id, "me", key.token, { title: "Changed" }, false]));
    expect(unpublish.faultCode).toBe(403);
    const remove = await fault(call("blogger.deletePost", ["", live.id, "me", key.token, true]));
    expect(remove.faultCode).toBe(403);
    expect(await blog.services.posts.findPublicPost(live.id)).toMatchObject({ title: live.title });

    const ghost = new GhostAdminAPI({ url: blog.siteUrl, key: key.adminKey, version: "v5.0" });
    const viaGhost = await ghost.posts
      .add({ title: "Ghost straight out", html: "<p>Text.</p>", status: "published" }, { source: "html" })
      .then(
        () => undefined,
        (error: { type?: string }) => error,
      );
    expect(viaGhost?.type).toBe("NoPermissionError");
  });
});
