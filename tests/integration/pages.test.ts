import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { EMPTY_PAGE_FORM, type PageInput, pageSchema } from "#domain/page.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const WRITER = { label: "Maya", email: "maya@example.com" };
const input = (fields: Partial<PageInput>): PageInput => pageSchema.parse({ ...EMPTY_PAGE_FORM, ...fields });
const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())("pages, on $dialect", (database) => {
  const blog = useTestBlog(database);

  it("starts with About, Privacy and Terms, published and never edited", async () => {
    const list = await blog.services.pages.listPages();
    expect(list.items.map((page) => [page.slug, page.title, page.builtIn, page.published, page.editedAt])).toEqual([
      ["about", "About", "about", true, null],
      ["privacy", "Privacy Policy", "privacy", true, null],
      ["terms", "Terms of Service", "terms", true, null],
    ]);
    const privacy = await blog.services.pages.getPublicPage("privacy");
    expect(privacy.description).toBe("What Inkwell stores about visitors, and why.");
    expect(privacy.contentHtml).toContain("<h2");
    expect(privacy.showLastUpdated).toBe(true);
  });

  it("creates, edits and deletes a page; a draft is not public", async () => {
    const { pages } = blog.services;
    const draft = await pages.createPage(input({ title: "Now", content: "What I do **now**." }), WRITER);
    expect(draft.slug).toBe("now");
    await expect(pages.getPublicPage("now")).rejects.toSatisfy((error) => isDomainError(error, "PAGE_NOT_FOUND"));

    const published = await pages.updatePage(
      draft.id,
      input({ title: "Now", slug: "now", content: "What I do **now**.", published: true }),
      WRITER,
    );
    expect(published.editedAt).not.toBeNull();
    expect((await pages.getPublicPage("now")).contentHtml).toContain("<strong>now</strong>");

    await pages.deletePage(draft.id, WRITER);
    await expect(pages.getPublicPage("now")).rejects.toSatisfy((error) => isDomainError(error, "PAGE_NOT_FOUND"));
  });

  it("refuses a slug the site's own routes use, and steps a derived one past it", async () => {
    const { pages } = blog.services;
    await expect(pages.createPage(input({ title: "Mine", slug: "Blog", content: "x" }), WRITER)).rejects.toSatisfy(
      (error) => isDomainError(error, "PAGE_SLUG_RESERVED") && /\/blog belongs to the site/.test(String(error)),
    );
    const derived = await pages.createPage(input({ title: "Search", content: "x" }), WRITER);
    expect(derived.slug).toBe("search-2");
    await expect(pages.createPage(input({ title: "Again", slug: "about", content: "x" }), WRITER)).rejects.toSatisfy(
      (error) => isDomainError(error, "SLUG_TAKEN"),
    );
  });

  it("ends a draft's preview links when it is published, and keeps its history in its own table", async () => {
    const { pages } = blog.services;
    const page = await pages.createPage(input({ title: "Soon", content: "Not yet." }), WRITER);
    const token = await pages.createPreviewLink(page.id);
    expect((await pages.getPreview(token)).title).toBe("Soon");
    await pages.updatePage(page.id, input({ title: "Soon", slug: "soon", content: "Now.", published: true }), WRITER);
    await expect(pages.getPreview(token)).rejects.toSatisfy((error) => isDomainError(error, "PREVIEW_NOT_FOUND"));
    expect(await pages.findPreviewLinkCreatedAt(page.id)).toBeUndefined();

    expect((await pages.listRevisions(page.id)).map((revision) => [revision.number, revision.savedBy])).toEqual([
      [2, WRITER.email],
      [1, WRITER.email],
    ]);
    expect(await blog.services.posts.listRevisions(page.id)).toEqual([]);
  });

  it("lets the library prune an image once no page shows it, counted from the deletion", async () => {
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const image = await blog.services.media.upload({
      bytes,
      name: "a.png",
      declaredType: "image/png",
      uploadedBy: "x",
    });
    const page = await blog.services.pages.createPage(input({ title: "Pic", content: `![A](${image.url})` }), WRITER);
    blog.clock.advance(40 * DAY);
    expect(await blog.services.media.listPrunable()).toEqual([]);
    await blog.services.pages.deletePage(page.id, WRITER);
    blog.clock.advance(29 * DAY);
    expect(await blog.services.media.listPrunable()).toEqual([]);
    blog.clock.advance(2 * DAY);
    expect((await blog.services.media.listPrunable()).map((record) => record.hash)).toEqual([image.hash]);
  });
});
