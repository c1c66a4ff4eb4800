// Micropub against the blog's HTTP server, case by case as micropub.rocks numbers its server
// tests: create (100s form, 200s JSON, 300s multipart with photos), update (400s), delete (500s),
// query (600s), media (700s)
// and authentication (800s). Each post is then read back through the posts service or q=source.
import http from "node:http";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

describe.each(testDialects())("Micropub on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let token = "";

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin("owner@example.com", "a long enough password");
    token = await newToken("publish");
  });
  afterEach(async () => {
    await blog?.close();
  });

  async function newToken(scope: "drafts" | "publish", name = `Micropub ${scope}`) {
    const { keys } = blog.services.apps;
    return (await keys.createKey(await keys.findHolder(), { name, scope })).token;
  }

  const bearer = (value = token) => ({ Authorization: `Bearer ${value}` });

  const postForm = (fields: [string, string][], headers: Record<string, string> = bearer()) =>
    fetch(`${blog.siteUrl}/micropub`, { method: "POST", headers, body: new URLSearchParams(fields) });
  const postJson = (body: unknown, headers: Record<string, string> = bearer()) =>
    fetch(`${blog.siteUrl}/micropub`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const query = (q: string, headers: Record<string, string> = bearer()) =>
    fetch(`${blog.siteUrl}/micropub?${q}`, { headers });

  /** The post a Location names, read as the editor reads it. */
  async function created(response: Response) {
    expect(response.status).toBe(201);
    const location = response.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^${blog.siteUrl}/blog/`));
    const slug = decodeURIComponent(new URL(location).pathname.split("/")[2]!);
    const found = (await blog.services.posts.listAllPosts()).items.find((post) => post.slug === slug)!;
    return { url: location, post: await blog.services.posts.getPostForEditing(found.id) };
  }

  async function source(url: string, properties: string[] = []) {
    const asked = properties.map((name) => `&properties[]=${name}`).join("");
    const response = await query(`q=source&url=${encodeURIComponent(url)}${asked}`);
    expect(response.status).toBe(200);
    return (await response.json()) as { type?: string[]; properties: Record<string, unknown[]> };
  }

  it("100: creates an h-entry post (form-encoded), published, rendered from Markdown", async () => {
    const { post } = await created(
      await postForm([
        ["h", "entry"],
        ["content", "Hello *world* from a note"],
      ]),
    );
    // A note has no name: its title is its text's first words.
    expect(post).toMatchObject({ published: true, format: "markdown", title: "Hello world from a note" });
    expect(post.contentHtml).toContain("<em>world</em>");
  });

  it("101 and 107: creates posts with multiple categories and with one (form-encoded)", async () => {
    const many = await created(
      await postForm([
        ["h", "entry"],
        ["content", "Filed and tagged"],
        ["category[]", "indieweb"],
        ["category[]", "Design"],
      ]),
    );
    expect(many.post).toMatchObject({ category: "Design", tags: ["indieweb"] });
    const one = await created(
      await postForm([
        ["h", "entry"],
        ["content", "One tag"],
        ["category", "micropub"],
      ]),
    );
    expect(one.post.tags).toEqual(["micropub"]);
  });

  it("takes properties named as every JavaScript object's own (constructor, __proto__) as any unknown property", async () => {
    const inherited = ["constructor", "__proto__", "toString", "hasOwnProperty"];
    const fromForm = await created(
      await postForm([
        ["h", "entry"],
        ["content", "Named oddly"],
        ...inherited.map((name): [string, string] => [name, "x"]),
      ]),
    );
    expect(fromForm.post.title).toBe("Named oddly");
    const fromJson = await created(
      await postJson({
        type: ["h-entry"],
        properties: Object.fromEntries([
          ["content", ["Named oddly in JSON"]],
          ...inherited.map((name) => [name, ["x"]]),
        ]),
      }),
    );
    expect(fromJson.post.title).toBe("Named oddly in JSON");
    const odd = Object.fromEntries(inherited.map((name) => [name, ["y"]]));
    for (const change of [{ add: odd }, { replace: odd }, { delete: odd }, { delete: inherited }]) {
      const answer = await postJson({ action: "update", url: fromJson.url, ...change });
      expect({ change, status: answer.status }).toEqual({ change, status: 204 });
    }
    expect((await source(fromJson.url)).properties.content).toEqual(["Named oddly in JSON"]);
  });

  it("drops control characters from what an app sends, as the editor's forms do, on both databases", async () => {
    const fromForm = await created(
      await postForm([
        ["h", "entry"],
        ["content", "Null\u0000 and bell\u0007 gone"],
        ["category", "ti\u0000ny"],
      ]),
    );
    expect(fromForm.post).toMatchObject({ content: "Null and bell gone", tags: ["tiny"] });
    const fromJson = await created(
      await postJson({ type: ["h-entry"], properties: { name: ["A\u0000 title"], content: ["Body\u0000"] } }),
    );
    expect(fromJson.post).toMatchObject({ title: "A title", content: "Body" });
    const form = new FormData();
    form.append("h", "entry");
    form.append("content", "Multipart\u0000 too");
    const fromMultipart = await created(
      await fetch(`${blog.siteUrl}/micropub`, { method: "POST", headers: bearer(), body: form }),
    );
    expect(fromMultipart.post.content).toBe("Multipart too");
    expect((await source(`${fromJson.url}\u0000`)).properties.name).toEqual(["A title"]);
  });

  it("104: creates an h-entry with a photo referenced by URL (form-encoded)", async () => {
    const { post } = await created(
      await postForm([
        ["h", "entry"],
        ["content", "A photo"],
        ["photo", "https://photos.example.com/sunset.jpg"],
      ]),
    );
    expect(post.contentHtml).toContain('src="https://photos.example.com/sunset.jpg"');
  });

  it("200, 201 and 202: creates h-entry posts as JSON, with categories and with HTML content, sanitised", async () => {
    const plain = await created(await postJson({ type: ["h-entry"], properties: { content: ["Hello JSON"] } }));
    expect(plain.post.contentHtml).toContain("Hello JSON");
    const tagged = await created(
      await postJson({ type: ["h-entry"], properties: { content: ["Tagged"], category: ["indieweb", "micropub"] } }),
    );
    expect(tagged.post.tags).toEqual(["indieweb", "micropub"]);
    const html = await created(
      await postJson({
        type: ["h-entry"],
        properties: {
          name: ["An article"],
          content: [{ html: "<p>Hello <b>bold</b></p><script>alert(1)</script>" }],
        },
      }),
    );
    expect(html.post).toMatchObject({ title: "An article", format: "html" });
    expect(html.post.contentHtml).toContain("<b>bold</b>");
    expect(html.post.contentHtml).not.toContain("<script");
  });

  it("203, 205 and 206: creates posts with a photo by URL, with alt text, and with several photos (JSON)", async () => {
    const one = await created(
      await postJson({
        type: ["h-entry"],
        properties: { content: ["One"], photo: ["https://photos.example.com/a.jpg"] },
      }),
    );
    expect(one.post.contentHtml).toContain("https://photos.example.com/a.jpg");
    const alt = await created(
      await postJson({
        type: ["h-entry"],
        properties: {
          content: ["With alt"],
          photo: [{ value: "https://photos.example.com/b.jpg", alt: "A red bicycle" }],
        },
      }),
    );
    expect(alt.post.contentHtml).toMatch(/<img[^>]*alt="A red bicycle"/);
    const two = await created(
      await postJson({
        type: ["h-entry"],
        properties: {
          content: ["Two"],
          photo: ["https://photos.example.com/c.jpg", "https://photos.example.com/d.jpg"],
        },
      }),
    );
    expect(two.post.contentHtml).toContain("c.jpg");
    expect(two.post.contentHtml).toContain("d.jpg");
  });

  it("204: creates a post carrying a nested object, keeping what it understands", async () => {
    const { post } = await created(
      await postJson({
        type: ["h-entry"],
        properties: {
          content: ["Nested"],
          author: [{ type: ["h-card"], properties: { name: ["Someone"], url: ["https://someone.example"] } }],
        },
      }),
    );
    expect(post.content).toBe("Nested");
  });

  it("creates a draft with post-status, a named slug, a summary and a scheduled publishing time", async () => {
    const draft = await created(
      await postJson({
        type: ["h-entry"],
        properties: { name: ["Later"], content: ["Not yet"], "post-status": ["draft"], "mp-slug": ["my-own-slug"] },
      }),
    );
    expect(draft.url).toBe(`${blog.siteUrl}/blog/my-own-slug`);
    expect(draft.post.published).toBe(false);
    const scheduled = await created(
      await postForm([
        ["name", "Scheduled"],
        ["content", "Soon"],
        ["summary", "A short summary"],
        ["published", "2099-01-02T03:04:05Z"],
      ]),
    );
    expect(scheduled.post).toMatchObject({ published: true, excerpt: "A short summary" });
    expect(scheduled.post.publishAt).toBe("2099-01-02T03:04:05.000Z");
  });

  it("400-405: replaces, adds to, removes from and removes properties, and refuses an operation that is not an array", async () => {
    const { url } = await created(
      await postJson({
        type: ["h-entry"],
        properties: { name: ["Before"], content: ["Old text"], category: ["a", "b"] },
      }),
    );
    const update = (body: object) => postJson({ action: "update", url, ...body });
    expect((await update({ replace: { content: ["New text"] } })).status).toBe(204); // 400
    expect((await source(url)).properties.content).toEqual(["New text"]);
    expect((await update({ add: { category: ["c"] } })).status).toBe(204); // 401
    expect((await source(url)).properties.category).toEqual(expect.arrayContaining(["a", "b", "c"]));
    expect((await update({ add: { photo: ["https://photos.example.com/added.jpg"] } })).status).toBe(204); // 402
    const withPhoto = (await blog.services.posts.listAllPosts()).items.find((item) => item.title === "Before")!;
    expect((await blog.services.posts.getPostForEditing(withPhoto.id)).contentHtml).toContain("added.jpg");
    expect((await update({ delete: { category: ["a"] } })).status).toBe(204); // 403
    expect((await source(url)).properties.category).not.toContain("a");
    expect((await update({ delete: ["category"] })).status).toBe(204); // 404
    const after = await source(url);
    expect(after.properties.category).not.toContain("b");
    expect(String(after.properties.content![0])).toMatch(/^New text/);
    const wrong = await update({ replace: { content: "not an array" } }); // 405
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_request" });
  });

  it("answers 201 with the new address when an update moves the post to a new slug", async () => {
    const { url } = await created(await postJson({ type: ["h-entry"], properties: { content: ["Moving"] } }));
    const moved = await postJson({ action: "update", url, replace: { "mp-slug": ["moved-here"] } });
    expect(moved.status).toBe(201);
    expect(moved.headers.get("location")).toBe(`${blog.siteUrl}/blog/moved-here`);
    expect((await source(url)).properties.url).toEqual([`${blog.siteUrl}/blog/moved-here`]);
  });

  it("500-503: deletes a post off the blog and undeletes it (form and JSON); a deleted draft is gone for good", async () => {
    const { url, post } = await created(await postForm([["content", "Soon gone"]]));
    expect(
      (
        await postForm([
          ["action", "delete"],
          ["url", url],
        ])
      ).status,
    ).toBe(204); // 500
    expect(await blog.services.posts.getPostForEditing(post.id)).toMatchObject({ published: false });
    expect((await blog.services.posts.listPublishedPosts()).items.map((item) => item.id)).not.toContain(post.id);
    expect(
      (
        await postForm([
          ["action", "undelete"],
          ["url", url],
        ])
      ).status,
    ).toBe(204); // 502
    expect(await blog.services.posts.getPostForEditing(post.id)).toMatchObject({ published: true });
    expect((await postJson({ action: "delete", url })).status).toBe(204); // 501
    expect((await postJson({ action: "undelete", url })).status).toBe(204); // 503
    expect(await blog.services.posts.getPostForEditing(post.id)).toMatchObject({ published: true });
    expect((await postJson({ action: "delete", url })).status).toBe(204);
    expect((await postJson({ action: "delete", url })).status).toBe(204);
    await expect(blog.services.posts.getPostForEditing(post.id)).rejects.toThrow("Post not found");
    const gone = await postJson({ action: "undelete", url });
    expect(gone.status).toBe(400);
  });

  it("600-603: answers the configuration, syndication targets, and a post's source, whole or in part", async () => {
    const config = (await (await query("q=config")).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ "media-endpoint": `${blog.siteUrl}/micropub/media`, "syndicate-to": [] }); // 600
    expect(await (await query("q=syndicate-to")).json()).toEqual({ "syndicate-to": [] }); // 601
    const { url } = await created(
      await postJson({ type: ["h-entry"], properties: { name: ["Sourced"], content: ["Body"], category: ["x"] } }),
    );
    const whole = await source(url); // 602
    expect(whole.type).toEqual(["h-entry"]);
    expect(whole.properties).toMatchObject({ name: ["Sourced"], content: ["Body"], "post-status": ["published"] });
    expect(whole.properties.category).toContain("x");
    const part = await source(url, ["content", "category"]); // 603
    expect(part.type).toBeUndefined();
    expect(Object.keys(part.properties).sort()).toEqual(["category", "content"]);
  });

  const photoBlob = async (color: string) =>
    new Blob(
      [
        new Uint8Array(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
            .jpeg()
            .toBuffer(),
        ),
      ],
      { type: "image/jpeg" },
    );

  it("300 and 301: creates h-entries with one and with two photos sent in the request (multipart)", async () => {
    const one = new FormData();
    one.append("h", "entry");
    one.append("content", "Nice sunset tonight");
    one.append("photo", await photoBlob("#f80"), "sunset.jpg");
    const single = await created(
      await fetch(`${blog.siteUrl}/micropub`, { method: "POST", headers: bearer(), body: one }),
    );
    const stored = [...single.post.content.matchAll(/!\[([^\]]*)\]\(<([^>]+)>\)/g)];
    expect(stored).toHaveLength(1);
    expect((await fetch(stored[0]![2]!)).status).toBe(200);
    expect(single.post.contentHtml).toContain("Nice sunset tonight");

    const two = new FormData();
    two.append("h", "entry");
    two.append("content", "Two photos");
    two.append("category[]", "first");
    two.append("category[]", "second");
    two.append("photo[]", await photoBlob("#08f"), "sea.jpg");
    two.append("photo[]", await photoBlob("#0a4"), "hills.jpg");
    const double = await created(
      await fetch(`${blog.siteUrl}/micropub`, { method: "POST", headers: bearer(), body: two }),
    );
    const photos = [...double.post.content.matchAll(/!\[([^\]]*)\]\(<([^>]+)>\)/g)];
    expect(photos).toHaveLength(2);
    expect(photos[0]![2]).not.toBe(photos[1]![2]);
    for (const photo of photos) expect((await fetch(photo[2]!)).status).toBe(200);
    expect(double.post.tags).toEqual(expect.arrayContaining(["first", "second"]));
  });

  it("reads no photo before the token is good, and refuses one that is not an image in words", async () => {
    const anonymous = new FormData();
    anonymous.append("content", "No token");
    anonymous.append("photo", await photoBlob("#f80"), "sunset.jpg");
    const refused = await fetch(`${blog.siteUrl}/micropub`, { method: "POST", body: anonymous });
    expect(refused.status).toBe(401);
    const before = (await blog.services.posts.listAllPosts()).items.length;
    const notImage = new FormData();
    notImage.append("content", "A text file");
    notImage.append("photo", new Blob(["just words"], { type: "image/jpeg" }), "words.jpg");
    const bad = await fetch(`${blog.siteUrl}/micropub`, { method: "POST", headers: bearer(), body: notImage });
    expect(bad.status).toBe(415);
    expect(((await bad.json()) as { error_description: string }).error_description).toMatch(/image/i);
    expect((await blog.services.posts.listAllPosts()).items).toHaveLength(before);
  });

  /** Sends an upload's headers and its first bytes, never the rest, and answers the status the blog gives meanwhile. */
  function startUpload(path: string, headers: Record<string, string | number>): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${blog.siteUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=b", ...headers },
      });
      request.on("response", (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on("error", reject);
      request.setTimeout(3_000, () => reject(new Error("the blog waited for the body")));
      request.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n');
    });
  }

  it("refuses an upload without a good token in its header, or without a length, before reading its body", async () => {
    expect(await startUpload("/micropub/media", { "Content-Length": 5_000_000 })).toBe(401);
    expect(await startUpload("/micropub/media", { "Content-Length": 5_000_000, ...bearer("wrong") })).toBe(401);
    expect(await startUpload("/micropub/media", { "Transfer-Encoding": "chunked", ...bearer() })).toBe(411);
    expect(await startUpload("/micropub", { "Transfer-Encoding": "chunked", ...bearer() })).toBe(411);
  });

  it("700-702: uploads a jpg, a png and a gif to the media endpoint, answering 201 with a Location", async () => {
    const image = sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } });
    for (const [format, type] of [
      ["jpeg", "image/jpeg"],
      ["png", "image/png"],
      ["gif", "image/gif"],
    ] as const) {
      const bytes = await image.clone().toFormat(format).toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type }), `photo.${format}`);
      const response = await fetch(`${blog.siteUrl}/micropub/media`, { method: "POST", headers: bearer(), body: form });
      expect(response.status, format).toBe(201);
      const location = response.headers.get("location")!;
      expect(location).toMatch(new RegExp(`^${blog.siteUrl}/`));
      expect((await fetch(location)).status, format).toBe(200);
    }
  });

  it("800-805: takes the token from the header or the form, keeps no access_token property, refuses none, a bad one and a short scope", async () => {
    expect((await postForm([["content", "Header"]])).status).toBe(201); // 800
    const inBody = await postForm(
      [
        ["content", "In the body"],
        ["access_token", token],
      ],
      {},
    );
    const { url } = await created(inBody); // 801
    expect((await source(url)).properties).not.toHaveProperty("access_token"); // 802
    const none = await postForm([["content", "Nobody"]], {}); // 803
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: "unauthorized" });
    const draftsOnly = await newToken("drafts");
    const publishing = await postForm([["content", "Publish me"]], bearer(draftsOnly)); // 804
    expect(publishing.status).toBe(403);
    expect(await publishing.json()).toMatchObject({ error: "insufficient_scope" });
    const invalid = await postForm([["content", "Forged"]], bearer("not-a-real-token")); // 805
    expect(invalid.status).toBe(401);
  });

  it("lets a drafts-only key write drafts but never publish them by an update, and refuses a revoked key at once", async () => {
    const draftsOnly = await newToken("drafts", "Drafts app");
    const draft = await created(
      await postForm(
        [
          ["content", "Only a draft"],
          ["post-status", "draft"],
        ],
        bearer(draftsOnly),
      ),
    );
    expect(draft.post.published).toBe(false);
    const publish = await postJson(
      { action: "update", url: draft.url, replace: { "post-status": ["published"] } },
      bearer(draftsOnly),
    );
    expect(publish.status).toBe(403);
    expect(await publish.json()).toMatchObject({ error: "insufficient_scope" });
    expect(await blog.services.posts.getPostForEditing(draft.post.id)).toMatchObject({ published: false });

    const live = await blog.services.posts.createPost(buildPostInput({ published: true }), TEST_WRITER);
    const liveUrl = `${blog.siteUrl}/blog/${live.slug}`;
    const edit = await postJson(
      { action: "update", url: liveUrl, replace: { content: ["Changed by an app"] } },
      bearer(draftsOnly),
    );
    expect(edit.status).toBe(403);
    const takeDown = await postJson({ action: "delete", url: liveUrl }, bearer(draftsOnly));
    expect(takeDown.status).toBe(403);
    expect(await takeDown.json()).toMatchObject({ error: "insufficient_scope" });
    expect(await blog.services.posts.findPublicPost(live.id)).toMatchObject({ content: live.content });

    const { keys } = blog.anotherAppServer().apps;
    await keys.revokeKey(await keys.findHolder(), { name: "Drafts app" });
    expect((await query("q=config", bearer(draftsOnly))).status).toBe(401);
    const { entries } = await blog.services.audit.listPage();
    expect(entries.map((entry) => entry.detail)).toContain("created “Only a draft” with Micropub");
  });

  it("announces its endpoints in the home page's Link header and refuses what it cannot read in plain words", async () => {
    const home = await fetch(`${blog.siteUrl}/`);
    const link = home.headers.get("link") ?? "";
    expect(link).toContain('</micropub>; rel="micropub"');
    expect(link).toContain('</indieauth/token>; rel="token_endpoint"');
    const refused = await fetch(`${blog.siteUrl}/micropub`, {
      method: "POST",
      headers: { ...bearer(), "Content-Type": "text/plain" },
      body: "content=x",
    });
    expect(refused.status).toBe(415);
    const bad = await postJson({ type: ["h-entry"], properties: { content: ["x"], published: ["yesterday"] } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error_description: string }).error_description).toMatch(/published/);
    const elsewhere = await postJson({ action: "delete", url: "https://elsewhere.example/blog/x" });
    expect(elsewhere.status).toBe(400);
    const brokenAddress = await postJson({ action: "delete", url: `${blog.siteUrl}/blog/%E0%A4%A` });
    expect(brokenAddress.status).toBe(400);
    expect(((await brokenAddress.json()) as { error_description: string }).error_description).toMatch(
      /is not a post on this blog/,
    );
  });
});
