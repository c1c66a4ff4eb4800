import { describe, expect, it } from "vitest";
import { action as addAction } from "../../app/routes/admin/navigation-add.tsx";
import { action as changeAction } from "../../app/routes/admin/navigation-change.tsx";
import { loader as navigationLoader } from "../../app/routes/admin/navigation.tsx";
import { action as settingsAction } from "../../app/routes/admin/settings.tsx";
import { loader as layoutLoader, middleware as layoutMiddleware } from "../../app/routes/site/layout.tsx";
import { EMPTY_PAGE_FORM, type PageInput, pageSchema } from "#domain/page.ts";
import type { SessionUser } from "../../server/accounts/auth.ts";
import type { ContentTag } from "../../server/kernel/content-changes.ts";
import { appContext } from "../../server/request-context.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { TEST_PASSWORD_COST } from "../support/factories.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";
import { createServices } from "../../server/composition.ts";
import { SETTINGS_CHECK_MS } from "../../server/kernel/settings-store.ts";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

const TEST_EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", username: "eddie", role: "editor" };
const WRITER = { label: "Maya", email: "maya@example.com" };
const pageInput = (fields: Partial<PageInput>): PageInput => pageSchema.parse({ ...EMPTY_PAGE_FORM, ...fields });

const ADD = "http://blog.test/admin/navigation/add";
const CHANGE = "http://blog.test/admin/navigation/change";
const addForm = (fields: Record<string, string>) =>
  postForm(ADD, { menu: "header", label: "", kind: "url", page: "", category: "", url: "", ...fields });

interface Link {
  label: string;
  href: string;
}

describe.each(testDialects())("navigation, on $dialect", (database) => {
  const blog = useTestBlog(database);

  /** A request's context as the server builds it: the settings read for this request. */
  const contextFor = async (user: SessionUser | null = TEST_ADMIN) => {
    const { context } = createRouteTestContext(blog.services, user);
    const site = { ...(await blog.services.siteSettings.current()), siteUrl: "http://blog.test" };
    context.set(appContext, { ...context.get(appContext), site });
    return context;
  };

  /** The menus a reader's page shows now, as [label, href] pairs. */
  const readersMenus = async () => {
    const { body } = await call(layoutLoader, new Request("http://blog.test/"), await contextFor(null));
    const { navigation } = body as { navigation: { header: Link[]; footer: Link[] } };
    const pairs = (links: Link[]) => links.map(({ label, href }) => [label, href]);
    return { header: pairs(navigation.header), footer: pairs(navigation.footer) };
  };

  const post = async (action: typeof addAction | typeof changeAction, request: Request, user = TEST_ADMIN) =>
    call(action as (args: AnyArgs) => unknown, request, await contextFor(user));

  it("shows the header and footer the site always had until they are edited", async () => {
    expect(await readersMenus()).toEqual({
      header: [
        ["Home", "/"],
        ["Categories", "/categories"],
        ["About", "https://example.com/about"],
      ],
      footer: [
        ["Development", "/category/development"],
        ["Technology", "/category/technology"],
        ["Design", "/category/design"],
        ["Business", "/category/business"],
        ["About", "/about"],
        ["Contact", "/about#contact"],
        ["Privacy", "/privacy"],
        ["Terms", "/terms"],
        ["Source code", "https://example.com/source"],
      ],
    });
    const { body } = await call(navigationLoader, new Request("http://blog.test/admin/navigation"), await contextFor());
    expect(body).toMatchObject({ edited: false });
    expect((body as { menus: { header: unknown[] } }).menus.header[0]).toEqual({
      id: "home",
      label: "Home",
      target: "Home page",
    });
  });

  it("adds a link to a page, which follows the page's new slug and vanishes while it is unpublished", async () => {
    const { pages } = blog.services;
    const page = await pages.createPage(
      pageInput({ title: "Our team", slug: "team", content: "Who we are.", published: true }),
      WRITER,
    );
    const added = await post(addAction, addForm({ label: "Team", kind: "page", page: page.id }));
    expect(added).toMatchObject({ status: 302 });
    expect(added.headers.get("Location")).toBe("/admin/navigation");
    expect((await readersMenus()).header.at(-1)).toEqual(["Team", "/team"]);

    const announced: ContentTag[][] = [];
    blog.services.changes.subscribe((tags) => announced.push(tags));
    await pages.updatePage(
      page.id,
      pageInput({ title: "Our team", slug: "people", content: "Who we are.", published: true }),
      WRITER,
    );
    expect(announced.flat()).toContain("navigation");
    expect((await readersMenus()).header.at(-1)).toEqual(["Team", "/people"]);

    await pages.updatePage(
      page.id,
      pageInput({ title: "Our team", slug: "people", content: "Who we are.", published: false }),
      WRITER,
    );
    expect((await readersMenus()).header.map(([label]) => label)).toEqual(["Home", "Categories", "About"]);
    const { body } = await call(navigationLoader, new Request("http://blog.test/admin/navigation"), await contextFor());
    expect(body).toMatchObject({
      edited: true,
      menus: { header: [{}, {}, {}, { label: "Team", target: "Page: Our team (draft, not shown yet)" }] },
    });
  });

  it("refuses a bad or javascript: address, an unknown page and a thirteenth link, saving nothing", async () => {
    const bad = await post(addAction, addForm({ label: "Docs", url: "docs.example" }));
    expect(bad).toMatchObject({
      status: 400,
      body: { errors: { url: "The address must start with http:// or https://" } },
    });
    const script = await post(addAction, addForm({ label: "Docs", url: "javascript:alert(1)" }));
    expect(script).toMatchObject({ status: 400, body: { errors: { url: expect.any(String) } } });
    const unknown = await post(addAction, addForm({ label: "Gone", kind: "page", page: "no-such-page" }));
    expect(unknown).toMatchObject({ status: 404, body: { formError: "That page no longer exists. Choose another." } });
    expect((await blog.services.siteSettings.current()).navigation).toBeNull();

    for (let count = 3; count < 12; count += 1) {
      expect(await post(addAction, addForm({ label: `Link ${count}`, kind: "blog" }))).toMatchObject({ status: 302 });
    }
    const full = await post(addAction, addForm({ label: "One more", kind: "blog" }));
    expect(full).toMatchObject({
      status: 409,
      body: { formError: "A menu holds at most 12 links. Remove one first." },
    });
    expect((await readersMenus()).header).toHaveLength(12);
  });

  it("moves, renames, removes and resets, each in the activity log, and keeps the menus through a settings save", async () => {
    expect(
      await post(changeAction, postForm(CHANGE, { intent: "move", menu: "header", item: "about", to: "0" })),
    ).toMatchObject({ status: 302 });
    expect(
      await post(changeAction, postForm(CHANGE, { intent: "remove", menu: "footer", item: "terms" })),
    ).toMatchObject({ status: 302 });
    expect(
      await post(changeAction, postForm(CHANGE, { intent: "rename", menu: "header", item: "home", label: "Start" })),
    ).toMatchObject({ status: 302 });
    const blank = await post(
      changeAction,
      postForm(CHANGE, { intent: "rename", menu: "header", item: "home", label: " " }),
    );
    expect(blank).toMatchObject({ status: 400, body: { formError: "Please enter the link's label" } });
    expect((await readersMenus()).header.map(([label]) => label)).toEqual(["About", "Start", "Categories"]);
    expect((await readersMenus()).footer.map(([label]) => label)).not.toContain("Terms");

    const gone = await post(changeAction, postForm(CHANGE, { intent: "remove", menu: "footer", item: "terms" }));
    expect(gone).toMatchObject({ status: 409, body: { formError: expect.stringMatching(/no longer in the menu/) } });

    const saved = await call(
      settingsAction,
      postForm("http://blog.test/admin/settings", {
        title: "Field Notes",
        description: "",
        aboutUrl: "https://notes.example/about",
        sourceUrl: "https://notes.example/source",
        postsPerPage: "10",
        timeZone: "UTC",
        footerText: "",
        emailFromName: "",
        emailReplyTo: "",
        accentColor: "",
        bodyTypeface: "sans",
      }),
      await contextFor(),
    );
    expect(saved).toMatchObject({ status: 200, body: { saved: true } });
    const afterSettings = await readersMenus();
    expect(afterSettings.header).toEqual([
      ["About", "https://notes.example/about"],
      ["Start", "/"],
      ["Categories", "/categories"],
    ]);

    expect(await post(changeAction, postForm(CHANGE, { intent: "reset" }))).toMatchObject({ status: 302 });
    expect((await blog.services.siteSettings.current()).navigation).toBeNull();
    expect((await readersMenus()).footer.map(([label]) => label)).toContain("Terms");

    // One clock time for all three, so the log's order among them is not asserted.
    const { entries } = await blog.services.audit.listPage();
    const details = entries.filter((entry) => entry.action === "navigation-changed").map((entry) => entry.detail);
    expect(details.sort()).toEqual([
      'footer: removed "Terms"',
      'header: moved "About"',
      'header: renamed "Home" to "Start"',
      "menus reset to the defaults",
    ]);
  });

  it("refuses an editor the screen and its forms, changing nothing", async () => {
    const screen = await call(
      navigationLoader,
      new Request("http://blog.test/admin/navigation"),
      await contextFor(TEST_EDITOR),
    );
    expect(screen.status).toBe(403);
    expect(await post(addAction, addForm({ label: "Mine", kind: "blog" }), TEST_EDITOR)).toMatchObject({ status: 403 });
    expect(await post(changeAction, postForm(CHANGE, { intent: "reset" }), TEST_EDITOR)).toMatchObject({ status: 403 });
    expect(
      await post(changeAction, postForm(CHANGE, { intent: "remove", menu: "header", item: "home" }), TEST_EDITOR),
    ).toMatchObject({ status: 403 });
    expect((await blog.services.siteSettings.current()).navigation).toBeNull();
  });

  it("tags a cacheable reader's page with navigation, and leaves a page that is not cached uncached", async () => {
    const tagsOf = async (pageTags: ContentTag[]) => {
      const context = await contextFor(null);
      const seen: string[] = [];
      context.set(appContext, { ...context.get(appContext), tagPage: (tags) => seen.push(...tags) });
      const args = routeArgs(new Request("http://blog.test/"), context);
      await layoutMiddleware[0]!(args as never, async () => undefined as never);
      if (pageTags.length > 0) context.get(appContext).tagPage(pageTags);
      return seen;
    };
    expect(await tagsOf(["lists"])).toEqual(["lists", "navigation"]);
    expect(await tagsOf([])).toEqual([]);
  });

  it("reaches another app server on the same database within its settings check, whose listeners (its page cache) hear of it", async () => {
    const other = createServices({
      db: blog.handle.db,
      dialect: database.dialect,
      now: blog.clock.now,
      passwordCost: TEST_PASSWORD_COST,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    expect((await other.siteSettings.current()).navigation).toBeNull();
    const heard: unknown[] = [];
    other.siteSettings.onChange((settings) => heard.push(settings.navigation));

    expect(await post(addAction, addForm({ label: "Blog", kind: "blog" }))).toMatchObject({ status: 302 });
    blog.clock.advance(SETTINGS_CHECK_MS);
    const seen = await other.siteSettings.current();
    expect(seen.navigation?.header.map((item) => item.label)).toEqual(["Home", "Categories", "About", "Blog"]);
    expect(heard).toHaveLength(1);
  });
});
