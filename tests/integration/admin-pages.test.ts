import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MediaInUseError } from "#domain/errors.ts";
import { EMPTY_PAGE_FORM, pageSchema } from "#domain/page.ts";
import type { SessionUser } from "../../server/accounts/auth.ts";
import { action as autosaveAction } from "../../app/routes/admin/page-autosave.ts";
import { action as editAction, loader as editLoader } from "../../app/routes/admin/page-edit.tsx";
import { action as newAction, loader as newLoader } from "../../app/routes/admin/page-new.tsx";
import { action as previewLinkAction } from "../../app/routes/admin/page-preview-link.ts";
import { action as restoreAction, loader as revisionLoader } from "../../app/routes/admin/page-revision.tsx";
import { action as listAction, loader as listLoader } from "../../app/routes/admin/pages.tsx";
import { loader as previewLoader } from "../../app/routes/site/page-preview.tsx";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
type Handler = (args: AnyArgs) => unknown;

const EMPTY_PAGE_INPUT = pageSchema.parse({ ...EMPTY_PAGE_FORM, title: "x", content: "x" });
const EDITOR: SessionUser = {
  id: "editor-1",
  email: "eve@example.com",
  username: "eve",
  role: "editor",
  writingView: "markdown",
  isAdmin: true,
};

/** What the page form posts without JavaScript: the fields as typed; an unticked box is not sent. */
function pageFields(fields: { title: string; content: string; slug?: string; published?: boolean }) {
  return {
    title: fields.title,
    slug: fields.slug ?? "",
    content: fields.content,
    format: "markdown",
    description: "",
    ...(fields.published ? { published: "on" } : {}),
  };
}

describe.each(testDialects())("the pages screens, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const call = (
    handler: Handler,
    request: Request,
    params: Record<string, string> = {},
    user: SessionUser | null = TEST_ADMIN,
  ) => {
    const { context } = createRouteTestContext(blog.services, user);
    return settle(() => handler(routeArgs(request, context, params) as AnyArgs));
  };
  const create = (fields: Parameters<typeof pageFields>[0], user: SessionUser = TEST_ADMIN) =>
    call(newAction, postForm("http://blog.test/admin/pages/new", pageFields(fields)), {}, user);
  const edit = (id: string, fields: Parameters<typeof pageFields>[0]) =>
    call(editAction, postForm(`http://blog.test/admin/pages/edit/${id}`, pageFields(fields)), { id });
  const findPage = async (slug: string) =>
    (await blog.services.pages.listPages()).items.find((page) => page.slug === slug)!;
  const isPublic = (slug: string) =>
    blog.services.pages.getPublicPage(slug).then(
      () => true,
      () => false,
    );

  it("creates a page from the plain form, public at /{slug} only once published", async () => {
    const created = await create({ title: "Now", content: "What I do **now**." });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/admin/pages");
    expect(created.headers.get("Set-Cookie")).toContain("blog_flash=");
    const page = await findPage("now");
    expect(page).toMatchObject({ title: "Now", published: false });
    expect(await isPublic("now")).toBe(false);

    const listed = await call(listLoader, new Request("http://blog.test/admin/pages"));
    expect((listed.body as { pages: { slug: string; published: boolean }[] }).pages).toContainEqual(
      expect.objectContaining({ slug: "now", published: false }),
    );

    const saved = await edit(page.id, { title: "Now", slug: "now", content: "What I do **now**.", published: true });
    expect(saved).toMatchObject({ status: 302 });
    expect((await blog.services.pages.getPublicPage("now")).contentHtml).toContain("<strong>now</strong>");
  });

  it("refuses a slug the site keeps, with the reason beside the Slug field, and a taken one with 409", async () => {
    for (const slug of ["blog", "Admin"]) {
      const refused = await create({ title: "Mine", slug, content: "x" });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        values: { slug },
        errors: { slug: `The address /${slug.toLowerCase()} belongs to the site itself. Choose another slug.` },
      });
    }
    const taken = await create({ title: "Mine", slug: "about", content: "x" });
    expect(taken).toMatchObject({ status: 409, body: { errors: { slug: "Another page already uses this slug" } } });
    const invalid = await create({ title: "", content: "" });
    expect(invalid).toMatchObject({ status: 400, body: { errors: { title: "Title is required" } } });
    expect((await blog.services.pages.listPages()).total).toBe(3);
  });

  it("edits and deletes a page from the list, asking through ?confirm= first", async () => {
    await create({ title: "Uses", content: "A laptop.", published: true });
    const page = await findPage("uses");
    await edit(page.id, { title: "What I use", slug: "uses", content: "A laptop and a pen.", published: true });
    expect(await blog.services.pages.getPublicPage("uses")).toMatchObject({ title: "What I use" });

    const confirming = await call(listLoader, new Request(`http://blog.test/admin/pages?confirm=${page.id}`));
    expect(confirming.body).toMatchObject({ confirmId: page.id });
    const deleted = await call(
      listAction,
      postForm(`http://blog.test/admin/pages?confirm=${page.id}`, { intent: "delete", id: page.id }),
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/admin/pages");
    expect(await isPublic("uses")).toBe(false);
    expect((await blog.services.pages.listPages()).items.map((item) => item.slug)).toEqual([
      "about",
      "privacy",
      "terms",
    ]);
  });

  it("tells the editor of a built-in page never saved that readers see its original design, until it is saved", async () => {
    const about = await findPage("about");
    const open = () => call(editLoader, new Request(`http://blog.test/admin/pages/edit/${about.id}`), { id: about.id });
    expect((await open()).body).toMatchObject({ originalDesign: true, values: { title: "About" } });
    await edit(about.id, { title: "About", slug: "about", content: "Just me.", published: true });
    expect((await open()).body).toMatchObject({ originalDesign: false });
  });

  it("keeps a revision on every save and restores one as a new revision", async () => {
    await create({ title: "Colophon", content: "First words." });
    const page = await findPage("colophon");
    await edit(page.id, { title: "Colophon", slug: "colophon", content: "Second words." });
    const before = await blog.services.pages.listRevisions(page.id);
    expect(before.map((revision) => [revision.number, revision.kind])).toEqual([
      [2, "save"],
      [1, "save"],
    ]);

    const compared = await call(
      revisionLoader,
      new Request(`http://blog.test/admin/pages/edit/${page.id}/revisions/${before[1]!.id}`),
      { id: page.id, revisionId: before[1]!.id },
    );
    expect(compared.body).toMatchObject({
      editorHref: `/admin/pages/edit/${page.id}`,
      comparison: {
        revision: { number: 1, kind: "Saved", savedBy: TEST_ADMIN.email },
        content: [
          { text: "First", change: "restored" },
          { text: "Second", change: "removed" },
          { text: " words.", change: "same" },
        ],
        unchanged: false,
      },
    });

    const restored = await call(
      restoreAction,
      new Request(`http://blog.test/admin/pages/edit/${page.id}/revisions/${before[1]!.id}`, { method: "POST" }),
      { id: page.id, revisionId: before[1]!.id },
    );
    expect(restored.status).toBe(302);
    expect(restored.headers.get("Location")).toBe(`/admin/pages/edit/${page.id}`);
    expect((await blog.services.pages.getPageForEditing(page.id)).content).toBe("First words.");
    expect((await blog.services.pages.listRevisions(page.id)).map((revision) => revision.kind)).toEqual([
      "restore",
      "save",
      "save",
    ]);
  });

  it("keeps an autosave as an unsaved draft the editor offers to recover", async () => {
    await create({ title: "Contact", content: "Write to me." });
    const page = await findPage("contact");
    blog.clock.advance(60_000);
    const autosaved = await call(
      autosaveAction,
      postForm(`http://blog.test/admin/pages/${page.id}/autosave`, {
        title: "Contact",
        content: "Write to me, or call.",
        format: "markdown",
      }),
      { id: page.id },
    );
    expect(autosaved.status).toBe(200);
    expect((await blog.services.pages.getPageForEditing(page.id)).content).toBe("Write to me.");

    const editor = await call(editLoader, new Request(`http://blog.test/admin/pages/edit/${page.id}`), { id: page.id });
    expect(editor.body).toMatchObject({ unsavedSince: expect.any(String), recovering: false });
    const recovering = await call(editLoader, new Request(`http://blog.test/admin/pages/edit/${page.id}?recover=1`), {
      id: page.id,
    });
    expect(recovering.body).toMatchObject({ recovering: true, values: { content: "Write to me, or call." } });
  });

  it("shows a draft through a preview link until the link is revoked", async () => {
    await create({ title: "Soon", content: "Coming **soon**." });
    const page = await findPage("soon");
    const shared = await call(
      previewLinkAction,
      postForm(`http://blog.test/admin/pages/${page.id}/preview-link`, { intent: "share" }),
      { id: page.id },
    );
    const { url } = shared.body as { url: string };
    expect(url).toMatch(/^http:\/\/blog\.test\/preview\/page\/[A-Za-z0-9_-]+$/);
    const token = url.split("/").at(-1)!;
    const preview = () => call(previewLoader, new Request(url), { token }, null);

    const shown = await preview();
    expect(shown.status).toBe(200);
    expect(shown.headers.get("Cache-Control")).toBe("private, no-store");
    expect(shown.body).toMatchObject({ page: { title: "Soon", contentHtml: expect.stringContaining("<strong>soon") } });

    await call(
      previewLinkAction,
      postForm(`http://blog.test/admin/pages/${page.id}/preview-link`, { intent: "revoke" }),
      { id: page.id },
    );
    expect(await preview()).toMatchObject({ status: 404 });
  });

  it("records the images a page shows, so the library will not delete them while it does", async () => {
    const bytes = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
    const image = await blog.services.media.upload({
      bytes,
      name: "harbour.jpg",
      declaredType: "image/jpeg",
      uploadedBy: TEST_ADMIN.id,
    });
    await create({ title: "Gallery", content: `![Harbour](${image.url})`, published: true });
    const page = await findPage("gallery");
    expect(await blog.services.media.deleteMedia(image.hash).catch((error: unknown) => error)).toBeInstanceOf(
      MediaInUseError,
    );
    expect((await blog.services.pages.getPublicPage("gallery")).contentHtml).toContain("<picture");

    await edit(page.id, { title: "Gallery", slug: "gallery", content: "No pictures now.", published: true });
    await blog.services.media.deleteMedia(image.hash);
    expect((await blog.services.media.listLibrary(1)).total).toBe(0);
  });

  it("lists pages by title, twenty to a screen, and answers a screen past the end with 404", async () => {
    for (let index = 1; index <= 18; index += 1) {
      await blog.services.pages.createPage(
        { ...EMPTY_PAGE_INPUT, title: `Note ${String(index).padStart(2, "0")}`, content: "x" },
        { label: "ada", email: TEST_ADMIN.email },
      );
    }
    const first = await call(listLoader, new Request("http://blog.test/admin/pages"));
    const titles = (first.body as { pages: { title: string }[] }).pages.map((page) => page.title);
    expect(titles).toHaveLength(20);
    expect(titles.slice(0, 2)).toEqual(["About", "Note 01"]);
    const second = await call(listLoader, new Request("http://blog.test/admin/pages?page=2"));
    expect((second.body as { pages: { title: string }[] }).pages.map((page) => page.title)).toEqual([
      "Terms of Service",
    ]);
    expect(await call(listLoader, new Request("http://blog.test/admin/pages?page=3"))).toMatchObject({ status: 404 });
  });

  it("lets an editor, not only the owner, make pages; refuses anyone signed out", async () => {
    const created = await create({ title: "Team", content: "Who we are." }, EDITOR);
    expect(created.status).toBe(302);
    expect((await blog.services.pages.listPages()).items.map((page) => page.slug)).toContain("team");
    const listed = await call(listLoader, new Request("http://blog.test/admin/pages"), {}, EDITOR);
    expect(listed.status).toBe(200);

    const page = await findPage("team");
    for (const [handler, request, params] of [
      [listLoader, new Request("http://blog.test/admin/pages"), {}],
      [newLoader, new Request("http://blog.test/admin/pages/new"), {}],
      [newAction, postForm("http://blog.test/admin/pages/new", pageFields({ title: "X", content: "x" })), {}],
      [editLoader, new Request(`http://blog.test/admin/pages/edit/${page.id}`), { id: page.id }],
      [listAction, postForm("http://blog.test/admin/pages", { intent: "delete", id: page.id }), {}],
      [
        previewLinkAction,
        postForm(`http://blog.test/admin/pages/${page.id}/preview-link`, { intent: "share" }),
        { id: page.id },
      ],
    ] as const) {
      const refused = await call(handler as Handler, request, params, null);
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    }
    expect((await blog.services.pages.listPages()).total).toBe(4);
  });
});
