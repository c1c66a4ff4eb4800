// Ghost's own published clients, unchanged, against the blog's HTTP server: what a writing app
// (the Admin API client) and a headless front end (the Content API client) do.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import GhostAdminAPI from "@tryghost/admin-api";
import GhostContentAPI from "@tryghost/content-api";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { type RunningFederatedBlog, startRunningFederatedBlog } from "../support/running-federated-blog.ts";

const OWNER_EMAIL = "owner@example.com";

interface GhostClientError extends Error {
  type?: string;
}

async function refusal(promise: Promise<unknown>): Promise<GhostClientError> {
  try {
    await promise;
  } catch (error) {
    return error as GhostClientError;
  }
  throw new Error("the request was not refused");
}

describe.each(testDialects())("Ghost's own clients on $dialect", ({ dialect, skip }) => {
  let blog: RunningFederatedBlog;

  beforeEach(async (context) => {
    if (skip) context.skip();
    blog = await startRunningFederatedBlog(dialect);
    await blog.services.auth.ensureAdmin(OWNER_EMAIL, "a long enough password");
  });
  afterEach(async () => {
    await blog?.close();
  });

  async function newKey(scope: "drafts" | "publish", name = `App ${scope}`) {
    const { keys } = blog.services.apps;
    return keys.createKey(await keys.findHolder(), { name, scope });
  }

  const adminClient = (key: string) => new GhostAdminAPI({ url: blog.siteUrl, key, version: "v5.0" });
  const contentClient = (key: string) => new GhostContentAPI({ url: blog.siteUrl, key, version: "v5.0" });

  it("writes a draft, edits it with the updated_at it was given, refuses a stale edit, publishes, uploads and deletes", async () => {
    const api = adminClient((await newKey("publish")).adminKey);
    const draft = await api.posts.add(
      { title: "From my writing app", html: "<p>Written <strong>elsewhere</strong>.</p>", tags: ["Design", "notes"] },
      { source: "html" },
    );
    expect(draft).toMatchObject({ title: "From my writing app", status: "draft", slug: "from-my-writing-app" });
    expect(draft.html).toContain("<strong>elsewhere</strong>");
    expect(draft.primary_tag).toMatchObject({ name: "Design" });
    const stored = await blog.services.posts.getPostForEditing(draft.id);
    expect(stored).toMatchObject({ category: "Design", tags: ["notes"], published: false, format: "html" });

    const edited = await api.posts.edit({ id: draft.id, title: "Renamed in the app", updated_at: draft.updated_at });
    expect(edited.title).toBe("Renamed in the app");
    const stale = await refusal(api.posts.edit({ id: draft.id, title: "Too late", updated_at: draft.updated_at }));
    expect(stale.type).toBe("UpdateCollisionError");
    expect((await blog.services.posts.getPostForEditing(draft.id)).title).toBe("Renamed in the app");

    const published = await api.posts.edit({ id: draft.id, status: "published", updated_at: edited.updated_at });
    expect(published.status).toBe("published");
    expect(await blog.services.posts.findPublicPost(draft.id)).toMatchObject({ title: "Renamed in the app" });
    const revisions = await blog.services.posts.listRevisions(draft.id);
    expect(revisions.length).toBeGreaterThanOrEqual(3);

    const file = path.join(tmpdir(), `ghost-upload-${process.pid}-${Date.now()}.png`);
    writeFileSync(
      file,
      await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
        .png()
        .toBuffer(),
    );
    const image = await api.images.upload({ file, ref: "cover" });
    expect(image.url).toMatch(new RegExp(`^${blog.siteUrl}/media/[0-9a-f]{64}/`));
    expect(image.ref).toBe("cover");
    const served = await fetch(image.url);
    expect(served.status).toBe(200);

    await api.posts.delete({ id: draft.id });
    const gone = await refusal(api.posts.read({ id: draft.id }));
    expect(gone.type).toBe("NotFoundError");
  });

  it("writes Markdown sent in lexical or mobiledoc, as Ghost's editors and apps send it", async () => {
    const api = adminClient((await newKey("publish")).adminKey);
    const lexical = JSON.stringify({
      root: { children: [{ type: "markdown", markdown: "# Hello\n\nSome *Markdown*." }] },
    });
    const fromLexical = await api.posts.add({ title: "Lexical", lexical });
    expect(fromLexical.html).toContain("<em>Markdown</em>");
    const mobiledoc = JSON.stringify({
      version: "0.3.1",
      cards: [["markdown", { markdown: "A **mobiledoc** card." }]],
      sections: [[10, 0]],
    });
    const fromMobiledoc = await api.posts.add({ title: "Mobiledoc", mobiledoc });
    expect(fromMobiledoc.html).toContain("<strong>mobiledoc</strong>");
    expect((await blog.services.posts.getPostForEditing(fromMobiledoc.id)).format).toBe("markdown");

    // Control characters are dropped, as the editor's forms drop them, however deep they are sent.
    const withNul = await api.posts.add({
      title: "Nul\u0000 title",
      mobiledoc: JSON.stringify({ ...JSON.parse(mobiledoc), cards: [["markdown", { markdown: "Nul\u0000 body" }]] }),
    });
    expect(await blog.services.posts.getPostForEditing(withNul.id)).toMatchObject({
      title: "Nul title",
      content: "Nul body",
    });
  });

  it("lets a drafts-only key write drafts but never publish", async () => {
    const api = adminClient((await newKey("drafts")).adminKey);
    const draft = await api.posts.add({ title: "Only a draft", html: "<p>Text.</p>" }, { source: "html" });
    const refusedPublish = await refusal(
      api.posts.edit({ id: draft.id, status: "published", updated_at: draft.updated_at }),
    );
    expect(refusedPublish.type).toBe("NoPermissionError");
    const refusedNew = await refusal(
      api.posts.add({ title: "Straight out", html: "<p>Text.</p>", status: "published" }, { source: "html" }),
    );
    expect(refusedNew.type).toBe("NoPermissionError");
    const refusedSchedule = await refusal(
      api.posts.add(
        { title: "Later", html: "<p>Text.</p>", status: "scheduled", published_at: "2099-01-01T09:00:00.000Z" },
        { source: "html" },
      ),
    );
    expect(refusedSchedule.type).toBe("NoPermissionError");
    const live = await blog.services.posts.createPost(buildPostInput({ published: true }), TEST_WRITER);
    const readLive = await api.posts.read({ id: live.id });
    const refusedEdit = await refusal(
      api.posts.edit({ id: live.id, title: "Changed by an app", updated_at: readLive.updated_at }),
    );
    expect(refusedEdit.type).toBe("NoPermissionError");
    const refusedDelete = await refusal(api.posts.delete({ id: live.id }));
    expect(refusedDelete.type).toBe("NoPermissionError");
    expect(await blog.services.posts.findPublicPost(live.id)).toMatchObject({ id: live.id, title: live.title });
    expect((await api.posts.browse()).map((post) => post.title)).not.toContain("Later");
  });

  it("refuses a key revoked on another app server from its next request here", async () => {
    const key = await newKey("publish", "Revoked elsewhere");
    const api = adminClient(key.adminKey);
    await api.posts.browse();
    const { keys } = blog.anotherAppServer().apps;
    await keys.revokeKey(await keys.findHolder(), { name: "Revoked elsewhere" });
    expect((await refusal(api.posts.browse())).type).toBe("UnauthorizedError");
    expect((await refusal(contentClient(key.contentKey).posts.browse())).type).toBe("UnauthorizedError");
  });

  it("answers a repeated parameter or a control character in a Content API query in words, never a 500", async () => {
    await blog.services.posts.createPost(buildPostInput({ published: true, tags: ["Herons"] }));
    const { contentKey } = await newKey("publish", "Headless");
    for (const search of [
      "fields=title&fields=slug",
      "include=tags&include=authors",
      "filter=tag:herons&filter=tag:egrets",
      "filter=tag:her%00ons",
      "filter=slug:a%01b",
      "order=title&order=slug",
      "limit=1&limit=2",
      "formats=html%00",
    ]) {
      for (const resource of ["posts", "pages", "tags", "authors"]) {
        const answer = await fetch(`${blog.siteUrl}/ghost/api/content/${resource}/?key=${contentKey}&${search}`);
        expect({ resource, search, status: answer.status }).toEqual({
          resource,
          search,
          status: expect.toSatisfy((status: number) => status === 200 || status === 400),
        });
      }
    }
  });

  it("refuses a revoked key from its next request", async () => {
    const key = await newKey("publish", "Revoked app");
    const api = adminClient(key.adminKey);
    await api.posts.browse();
    const { keys } = blog.services.apps;
    await keys.revokeKey(await keys.findHolder(), { name: "Revoked app" });
    expect((await refusal(api.posts.browse())).type).toBe("UnauthorizedError");
    expect((await refusal(contentClient(key.contentKey).posts.browse())).type).toBe("UnauthorizedError");
  });

  it("gives a headless front end the public posts, pages, tags, authors and settings, and never a draft", async () => {
    const { posts } = blog.services;
    await posts.createPost(
      buildPostInput({ title: "Public design", category: "Design", tags: ["Colour theory"], published: true }),
      TEST_WRITER,
    );
    await posts.createPost(
      buildPostInput({ title: "Public business", category: "Business", published: true }),
      TEST_WRITER,
    );
    await posts.createPost(
      buildPostInput({ title: "A secret draft", category: "Design", published: false }),
      TEST_WRITER,
    );
    const api = contentClient((await newKey("drafts")).contentKey);

    const all = await api.posts.browse({ include: "tags,authors", limit: 10 });
    expect(all.map((post) => post.title).sort()).toEqual(["Public business", "Public design"]);
    expect(all.meta.pagination).toMatchObject({ page: 1, total: 2 });
    const design = all.find((post) => post.title === "Public design")!;
    expect(design.tags?.map((tag) => tag.name)).toEqual(["Design", "Colour theory"]);
    expect(design.authors?.[0]?.name).toBe(buildPostInput().author);
    expect(design.html).toBeTruthy();

    expect((await api.posts.browse({ filter: "tag:design" })).map((post) => post.title)).toEqual(["Public design"]);
    expect((await api.posts.browse({ filter: "tag:colour-theory" })).map((post) => post.title)).toEqual([
      "Public design",
    ]);
    expect(await api.posts.browse({ filter: "featured:true" })).toHaveLength(0);
    expect(await api.posts.browse({ filter: "published_at:>'2000-01-01'" })).toHaveLength(2);
    expect(await api.posts.browse({ filter: "published_at:<'2000-01-01'" })).toHaveLength(0);

    const bySlug = await api.posts.read({ slug: design.slug });
    expect(bySlug.title).toBe("Public design");
    const draftRead = await refusal(api.posts.read({ slug: "a-secret-draft" }));
    expect(draftRead.type).toBe("NotFoundError");

    const onlyTitles = await api.posts.browse({ fields: "title,slug" });
    expect(Object.keys(onlyTitles[0]!).sort()).toEqual(["slug", "title"]);
    // A field every JavaScript object has is no field of a post.
    const inherited = await api.posts.browse({ fields: "title,__proto__,constructor" });
    expect(JSON.stringify(inherited[0])).toBe(JSON.stringify({ title: inherited[0]!.title }));

    const tags = await api.tags.browse();
    expect(tags.map((tag) => tag.name)).toEqual(expect.arrayContaining(["Design", "Business", "Colour theory"]));
    const authors = await api.authors.browse();
    expect(authors.map((author) => author.name)).toEqual([buildPostInput().author]);
    const pages = await api.pages.browse();
    expect(Array.isArray(pages)).toBe(true);
    const settings = await api.settings.browse();
    expect(settings).toMatchObject({ title: expect.any(String), url: `${blog.siteUrl}/` });
  });
});
