import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput } from "../support/factories.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";
import { useTestBlog } from "../support/test-blog.ts";
import { startWebPages, type WebPages } from "../support/web-pages.ts";
import type { Worker } from "../../server/kernel/workers.ts";

// Webmention in and out (issue 38) between the blog, running on a real port with its worker, and
// other sites' pages served on 127.0.0.1 (tests/support/web-pages.ts). Those pages are on this
// machine, which the blog fetches only because the test server turns FEDIVERSE_ALLOW_PRIVATE_ADDRESS on.
// An independent sender (@remy/webmention) discovers the endpoint on a rendered post page, so it
// talks to the built server: tests/e2e/server-webmention.spec.ts.

const eventually = { timeout: 15_000, interval: 25 };

function replyPage(target: string, authorUrl: string, content: string): string {
  return `<!doctype html><html><body>
    <article class="h-entry">
      <a class="p-author h-card" href="${authorUrl}">Alice Example</a>
      <p>In reply to <a class="u-in-reply-to" href="${target}">that post</a></p>
      <div class="e-content">${content}</div>
      <time class="dt-published" datetime="2026-01-02T03:04:05Z">2 January</time>
    </article></body></html>`;
}

describe.each(testDialects())("Webmention between the blog and other sites on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;
  let web: WebPages;
  let worker: Worker;
  const failures: unknown[] = [];

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    web = await startWebPages();
    worker = blog.services.webmention.worker((error) => failures.push(error));
    await worker.start();
  });
  afterEach(async () => {
    await worker?.stop();
    await web?.close();
    await blog?.close();
    expect(failures).toEqual([]);
  });

  const send = (source: string, target: string) =>
    fetch(`${blog.siteUrl}/webmention`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ source, target }),
    });
  const heldComments = async () => (await blog.services.comments.listForModeration({ status: "pending" })).comments;
  const counts = async (postId: string) => (await blog.services.webmention.countsFor([postId])).get(postId);

  test("a reply waits in moderation with its author linked and its HTML made text; an update edits it, a 410 removes it", async () => {
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Talked about elsewhere" }));
    const target = `${blog.siteUrl}/blog/${post.slug}`;
    const source = web.url("/replies/1");
    const author = web.url("/alice");
    web.serve("/replies/1", {
      body: replyPage(
        target,
        author,
        '<p>Lovely post! <script>alert("x")</script><a href="javascript:alert(1)">me</a><img src=x onerror="alert(2)"></p>',
      ),
    });

    const answer = await send(source, target);
    expect(answer.status).toBe(202);
    await vi.waitFor(async () => expect(await heldComments()).toHaveLength(1), eventually);
    const [reply] = await heldComments();
    expect(reply).toMatchObject({
      postId: post.id,
      author: "Alice Example",
      remoteAuthor: { handle: new URL(author).host, url: author },
      mentionSource: source,
      heldReason: `Reply by Webmention from ${source}`,
      createdAt: "2026-01-02T03:04:05.000Z",
    });
    expect(reply!.content).toBe("Lovely post! me");
    // The mention is kept just after its comment.
    await vi.waitFor(async () => expect(await counts(post.id)).toMatchObject({ reply: 1, like: 0 }), eventually);
    // Fediverse replies are counted apart: this one is the web's.
    expect(await blog.services.fediverse.postCounts(post.id)).toMatchObject({ replies: 0 });

    web.serve("/replies/1", { body: replyPage(target, author, "<p>Lovely post, and I said more.</p>") });
    expect((await send(source, target)).status).toBe(202);
    await vi.waitFor(
      async () => expect((await heldComments())[0]?.content).toBe("Lovely post, and I said more."),
      eventually,
    );
    expect(await heldComments()).toHaveLength(1);

    web.serve("/replies/1", { status: 410, body: "Gone" });
    expect((await send(source, target)).status).toBe(202);
    await vi.waitFor(async () => expect(await heldComments()).toEqual([]), eventually);
    expect(await counts(post.id)).toMatchObject({ reply: 0 });
  });

  test("a page that does not link the post is not kept, and one that stops linking it is forgotten", async () => {
    const post = await blog.services.posts.createPost(buildPostInput());
    const target = `${blog.siteUrl}/blog/${post.slug}`;
    web.serve("/mention", { body: `<p>I read <a href="${target}">this</a>.</p>` });
    expect((await send(web.url("/mention"), target)).status).toBe(202);
    await vi.waitFor(async () => expect(await counts(post.id)).toMatchObject({ mention: 1 }), eventually);

    web.serve("/mention", { body: "<p>I read something else.</p>" });
    web.serve("/unrelated", { body: "<p>No link here.</p>" });
    expect((await send(web.url("/mention"), target)).status).toBe(202);
    expect((await send(web.url("/unrelated"), target)).status).toBe(202);
    await vi.waitFor(async () => expect(await counts(post.id)).toMatchObject({ mention: 0 }), eventually);
    await vi.waitFor(() => expect(web.fetches.filter((path) => path === "/unrelated")).toHaveLength(1), eventually);
    expect(await heldComments()).toEqual([]);
  });

  test("a post tells the pages it links, and a page it stops linking, through their endpoints", async () => {
    web.serve("/linked/a", { headers: { link: "</endpoint/a>; rel=webmention" }, body: "<p>A</p>" });
    web.serve("/linked/b", { body: '<link rel="webmention" href="/endpoint/b"><p>B</p>' });
    web.serve("/linked/none", { body: "<p>No endpoint</p>" });
    const links = `<p><a href="${web.url("/linked/a")}">a</a> <a href="${web.url("/linked/b")}#part">b</a> <a href="${web.url("/linked/none")}">c</a></p>`;
    const post = await blog.services.posts.createPost(buildPostInput({ content: links }));
    const source = `${blog.siteUrl}/blog/${post.slug}`;
    await vi.waitFor(() => expect(web.posts).toHaveLength(2), eventually);
    expect(
      web.posts.map(({ path, form }) => ({ path, form })).toSorted((a, b) => a.path.localeCompare(b.path)),
    ).toEqual([
      { path: "/endpoint/a", form: { source, target: web.url("/linked/a") } },
      { path: "/endpoint/b", form: { source, target: web.url("/linked/b") } },
    ]);

    const { slug: _slug, ...input } = buildPostInput({ content: `<p><a href="${web.url("/linked/a")}">a</a></p>` });
    await blog.services.posts.updatePost(post.id, { ...input, slug: post.slug });
    await vi.waitFor(() => expect(web.posts).toHaveLength(4), eventually);
    expect(
      web.posts
        .slice(2)
        .map(({ path }) => path)
        .toSorted(),
    ).toEqual(["/endpoint/a", "/endpoint/b"]);

    // Told once that the link is gone, the page is not told again at the next edit.
    await blog.services.posts.updatePost(post.id, { ...input, slug: post.slug, title: "Edited again" });
    await vi.waitFor(() => expect(web.posts).toHaveLength(5), eventually);
    expect(web.posts[4]!.path).toBe("/endpoint/a");
  });

  test("a save that failed after its notices were queued leaves no mark: a restored revision still tells its pages", async () => {
    web.serve("/linked/kept", { headers: { link: "</endpoint/kept>; rel=webmention" }, body: "<p>K</p>" });
    const content = `<p><a href="${web.url("/linked/kept")}">kept</a></p>`;
    const post = await blog.services.posts.createPost(buildPostInput({ content }));
    await vi.waitFor(() => expect(web.posts).toHaveLength(1), eventually);

    // The owner's webhook queues its call after Webmention's notices, in the same transaction; the
    // database refusing that call rolls the whole save back, notices included.
    await blog.services.webhooks.create({ label: "owner" }, { event: "post.updated", url: web.url("/hook") });
    const refuseWebhookCalls =
      dialect === "sqlite"
        ? [
            sql`CREATE TRIGGER refuse_calls BEFORE INSERT ON webhook_deliveries BEGIN SELECT RAISE(ABORT, 'refused'); END`,
          ]
        : [
            sql`CREATE FUNCTION refuse_calls() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
            sql`CREATE TRIGGER refuse_calls BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_calls()`,
          ];
    for (const statement of refuseWebhookCalls) await statement.execute(blog.handle.db);
    const { slug: _slug, ...input } = buildPostInput({ content, title: "Never saved" });
    await expect(blog.services.posts.updatePost(post.id, { ...input, slug: post.slug })).rejects.toThrow();
    await sql`DROP TRIGGER refuse_calls${dialect === "sqlite" ? sql`` : sql` ON webhook_deliveries`}`.execute(
      blog.handle.db,
    );

    const [original] = await blog.services.posts.listRevisions(post.id);
    await blog.services.posts.restoreRevision(post.id, original!.id, { email: "owner@example.com", label: "Owner" });
    await vi.waitFor(() => expect(web.posts).toHaveLength(2), eventually);
    expect(web.posts[1]!.form).toEqual({
      source: `${blog.siteUrl}/blog/${post.slug}`,
      target: web.url("/linked/kept"),
    });
  });

  test("a scheduled post tells the pages it links when its time comes, once though two servers look", async () => {
    web.serve("/linked/later", { headers: { link: "</endpoint/later>; rel=webmention" }, body: "<p>L</p>" });
    const publishAt = new Date(Date.now() + 1500).toISOString().slice(0, 19);
    const post = await blog.services.posts.createPost(
      buildPostInput({
        content: `<p><a href="${web.url("/linked/later")}">later</a></p>`,
        publishAt,
        publishAtOffset: "0",
      }),
    );
    const clocks = [
      blog.services.posts.scheduledPosts(failures.push.bind(failures)),
      blog.services.posts.scheduledPosts(failures.push.bind(failures)),
    ];
    try {
      for (const clock of clocks) await clock.start();
      await vi.waitFor(() => expect(web.posts).toHaveLength(1), eventually);
      expect(web.posts[0]!.form).toEqual({
        source: `${blog.siteUrl}/blog/${post.slug}`,
        target: web.url("/linked/later"),
      });
      await Promise.all(clocks.map((clock) => clock.nudge()));
      await worker.nudge?.();
      expect(web.posts).toHaveLength(1);
    } finally {
      for (const clock of clocks) await clock.stop();
    }
  });

  test("a post with Webmentions turned off, or a site that sends none, tells nobody", async () => {
    web.serve("/linked/quiet", { headers: { link: "</endpoint/quiet>; rel=webmention" }, body: "<p>Q</p>" });
    const content = `<p><a href="${web.url("/linked/quiet")}">q</a></p>`;
    await blog.services.posts.createPost(buildPostInput({ content, webmentionsOff: true }));
    await blog.services.webmention.saveSettings({ send: false, receive: true });
    await blog.services.posts.createPost(buildPostInput({ content }));
    await blog.services.webmention.saveSettings({ send: true, receive: true });
    const loud = await blog.services.posts.createPost(buildPostInput({ content }));
    await vi.waitFor(() => expect(web.posts).toHaveLength(1), eventually);
    expect(web.posts[0]!.form.source).toBe(`${blog.siteUrl}/blog/${loud.slug}`);
  });
});

describe.each(testDialects())("the Webmention endpoint's door on $dialect", (database) => {
  const blog = useTestBlog(database);

  test("refuses what is not a mention of a public post, a source on this machine, and too many from one host", async () => {
    const post = await blog.services.posts.createPost(buildPostInput());
    const draft = await blog.services.posts.createPost(buildPostInput({ published: false }));
    const target = `http://localhost:3000/blog/${post.slug}`;
    const receive = (source: string, to = target) => blog.services.webmention.receive({ source, target: to });
    await expect(receive("not a url")).rejects.toThrow("The source must be an http(s) URL.");
    await expect(receive("https://elsewhere.example/a", "ftp://x")).rejects.toThrow(
      "The target must be an http(s) URL.",
    );
    await expect(receive(target)).rejects.toThrow("The source and the target must be different pages.");
    await expect(receive("https://elsewhere.example/a", `http://localhost:3000/blog/${draft.slug}`)).rejects.toThrow(
      "The target is not a published post on this blog.",
    );
    await expect(receive("https://elsewhere.example/a", "https://other.example/blog/x")).rejects.toThrow(
      "The target is not a published post on this blog.",
    );
    await expect(receive("http://127.0.0.1:8080/reply")).rejects.toThrow(/not a public address/);
    await expect(receive("http://[::1]/reply")).rejects.toThrow(/not a public address/);
    await expect(receive("http://169.254.169.254/latest")).rejects.toThrow(/not a public address/);

    for (let index = 0; index < 60; index += 1) await receive(`https://busy.example/${index}`);
    await expect(receive("https://busy.example/61")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await receive("https://calm.example/1");
  });

  test("takes a mention from a blocked domain without keeping it", async () => {
    const post = await blog.services.posts.createPost(buildPostInput());
    const settings = await blog.services.fediverse.settings();
    await blog.services.fediverse.saveSettings({ ...settings, blocked: "spam.example" }, { label: "test" } as never);
    await blog.services.webmention.receive({
      source: "https://www.spam.example/x",
      target: `http://localhost:3000/blog/${post.slug}`,
    });
    const queued = await blog.handle.db.selectFrom("webmention_jobs").selectAll().execute();
    expect(queued).toEqual([]);
  });
});
