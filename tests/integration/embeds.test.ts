import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServices } from "../../server/composition.ts";
import { CARDS_PER_WRITER } from "../../server/embeds/index.ts";
import type { DatabaseHandle } from "../../server/kernel/db/connect.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT } from "../support/test-blog.ts";

// Embeds (issue 36): a URL alone on its line becomes a bookmark card built from the page's Open
// Graph tags, fetched when the post is saved. The page is served on 127.0.0.1, so these services
// turn FEDIVERSE_ALLOW_PRIVATE_ADDRESS on, as the Webmention and webhook tests do; the last test
// leaves it off and sees the address refused.

const PAGE = `<!doctype html><html><head><title>Fallback</title>
<meta property="og:title" content="Herons &amp; <egrets>">
<meta property="og:description" content="A field guide with &quot;quotes&quot; and <script>alert(1)</script>">
<meta property="og:site_name" content="Bird Notes">
</head><body>Herons</body></html>`;

describe.each(testDialects())("embeds on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle & { url: string };
  let server: Server;
  let origin: string;
  let hits: number;

  const makeServices = (allowPrivateAddress: boolean, now?: () => Date) =>
    createServices({
      ...(now ? { now } : {}),
      db: handle.db,
      dialect,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
      sessionSecret: "the embeds test's server secret",
      fediverseAllowPrivateAddress: allowPrivateAddress,
    });
  const markdownPost = (content: string) => buildPostInput({ title: "Birds", format: "markdown", content });

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    hits = 0;
    server = createServer((request, response) => {
      hits += 1;
      if (request.url === "/herons") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      } else response.writeHead(404, { "content-type": "text/html" }).end("<title>Not here</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await handle?.close();
  });

  it("saves a bare URL as a bookmark card of the page's Open Graph data, escaped, fetched once", async () => {
    const services = makeServices(true);
    const content = `Before.\n\n${origin}/herons\n\nAfter, with ${origin}/herons inline.`;
    const post = await services.posts.createPost(markdownPost(content));

    expect(post.content).toBe(content);
    expect(post.contentHtml).toContain(
      `<p class="embed-card"><a class="embed-card-link" href="${origin}/herons" rel="noopener"><strong>Herons &amp; &lt;egrets&gt;</strong><br /><span>A field guide with "quotes" and &lt;script&gt;alert(1)&lt;/script&gt;</span><br /><small>Bird Notes</small></a></p>`,
    );
    expect(post.contentHtml).not.toContain("<script");
    // The URL within a sentence stays a link.
    expect(post.contentHtml).toContain(`After, with <a href="${origin}/herons">${origin}/herons</a> inline.`);

    await services.posts.updatePost(post.id, markdownPost(`${content}\n\nMore.`));
    expect(hits).toBe(1);

    // The feed carries the card as what it is: a link to the page.
    const site = { siteUrl: "https://blog.example", title: "B", description: "" };
    const feed = (await services.feeds.feed("rss", site)).body;
    expect(feed).toContain(`href="${origin}/herons"`);
    expect(feed).not.toContain("<iframe");
  });

  it("fetches nothing for a save that leaves the body as it was, and a restored revision keeps its card", async () => {
    let clock = new Date();
    const services = makeServices(true, () => clock);
    const failing = `${origin}/gone`;
    const post = await services.posts.createPost(markdownPost(`${failing}\n\n${origin}/herons`));
    expect(hits).toBe(2);
    // Two days later the failed page is due again, but publishing (as a bulk change does) keeps the body.
    clock = new Date(clock.getTime() + 2 * 24 * 3600 * 1000);
    await services.posts.updatePost(post.id, { ...markdownPost(post.content), published: true });
    expect(hits).toBe(2);

    const edited = await services.posts.updatePost(post.id, markdownPost("Only words now."));
    expect(edited.contentHtml).not.toContain("embed-card");
    const [original] = (await services.posts.listRevisions(post.id)).toReversed();
    const restored = await services.posts.restoreRevision(post.id, original!.id, {
      email: "owner@example.com",
      label: "Owner",
    });
    expect(restored.contentHtml).toContain('<p class="embed-card">');
  });

  it("answers the editor's pasted URL with the card, and none for a page that fails", async () => {
    const services = makeServices(true);
    expect(await services.embeds.card(`${origin}/herons`, "writer-1")).toContain(
      "<strong>Herons &amp; &lt;egrets&gt;</strong>",
    );
    expect(await services.embeds.card(`${origin}/missing`, "writer-1")).toBeUndefined();
    // A video needs no fetch: a link to its cookie-free player, no iframe until the reader follows it.
    const video = await services.embeds.card("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "writer-1");
    expect(video).toBe(
      `<p class="embed-video"><a class="embed-video-link" href="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" rel="noopener">Play the video on YouTube</a></p>\n`,
    );
    expect(hits).toBe(2);
  });

  it("answers each writer's pasted URLs only so often, as each may make the blog fetch a page", async () => {
    const services = makeServices(true);
    for (let card = 0; card < CARDS_PER_WRITER.maxHits; card += 1) {
      await services.embeds.card("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "writer-1");
    }
    await expect(services.embeds.card(`${origin}/herons`, "writer-1")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(hits).toBe(0);
    expect(await services.embeds.card(`${origin}/herons`, "writer-2")).toContain("Herons");
  });

  it("refuses to fetch a private address and leaves a plain link", async () => {
    const services = makeServices(false);
    const post = await services.posts.createPost(markdownPost(`${origin}/herons`));
    expect(hits).toBe(0);
    expect(post.contentHtml).toBe(`<p><a href="${origin}/herons">${origin}/herons</a></p>\n`);
    expect(await services.embeds.card("http://localhost/", "writer-1")).toBeUndefined();
  });
});
