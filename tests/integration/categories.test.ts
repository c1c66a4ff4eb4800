import { describe, expect, it } from "vitest";
import { loader as categoryLoader } from "../../app/routes/site/category.tsx";
import { loader as feedLoader } from "../../app/routes/resources/feed.ts";
import { loader as layoutLoader } from "../../app/routes/site/layout.tsx";
import { action as addAction } from "../../app/routes/admin/categories-add.tsx";
import { action as changeAction } from "../../app/routes/admin/categories-change.tsx";
import { CATEGORIES } from "#domain/categories.ts";
import type { ContentTag } from "../../server/kernel/content-changes.ts";
import { appContext } from "../../server/request-context.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts, TEST_WRITER } from "../support/factories.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
const SITE = "http://blog.test";
const ACTOR = { label: "Maya" };

describe.each(testDialects())("the writer's categories, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const categories = () => blog.services.categories;
  const named = async (name: string) => (await categories().list()).find((category) => category.name === name)!;

  const visit = async (handler: (args: AnyArgs) => unknown, path: string, params: Record<string, string>) => {
    const { context } = createRouteTestContext(blog.services, null);
    return settle(() => handler(routeArgs(new Request(`${SITE}${path}`), context, params) as AnyArgs));
  };
  const page = (slug: string) => visit(categoryLoader, `/category/${slug}`, { category: slug });
  const feed = (slug: string, file = "rss.xml") => visit(feedLoader, `/category/${slug}/${file}`, { category: slug });

  async function counts() {
    const summaries = await blog.services.posts.summariseCategories();
    return Object.fromEntries(summaries.map((summary) => [summary.category, summary.postCount]));
  }

  it("starts with the spec's six, at the addresses they always had", async () => {
    expect((await categories().list()).map((category) => [category.name, category.slug])).toEqual(
      CATEGORIES.map((name) => [name, name.toLowerCase()]),
    );
    expect((await page("Development")).status).toBe(200);
    expect((await page("DEVELOPMENT")).status).toBe(404);
  });

  it("adds a category at the end, which posts may then use, and refuses a name or address taken", async () => {
    const added = await categories().add({ name: "Web Design", description: "" }, ACTOR);
    expect(added).toMatchObject({ slug: "web-design", position: 6 });
    const [post] = await createPosts(blog.services, blog.clock, [{ category: "Web Design" }]);
    expect(post!.category).toBe("Web Design");
    expect(await counts()).toEqual({ "Web Design": 1 });
    expect((await page("web-design")).body).toMatchObject({ category: "Web Design" });

    await expect(categories().add({ name: "web design", description: "" }, ACTOR)).rejects.toMatchObject({
      code: "CATEGORY_TAKEN",
    });
    await expect(
      blog.services.posts.createPost(buildPostInput({ category: "Cooking" }), TEST_WRITER),
    ).rejects.toMatchObject({ code: "CATEGORY_UNKNOWN" });
  });

  it("renames a category with its posts and counts in one go, and every old address answers 301 to the new one", async () => {
    const [published, draft] = await createPosts(blog.services, blog.clock, [
      { category: "Design" },
      { category: "Design", published: false },
      { category: "Business" },
    ]);
    const design = await named("Design");
    await categories().change({ action: "rename", id: design.id, name: "Visual Design" }, ACTOR);
    expect(await counts()).toEqual({ "Visual Design": 1, Business: 1 });
    expect((await blog.services.posts.getPostForEditing(published!.id)).category).toBe("Visual Design");
    expect((await blog.services.posts.getPostForEditing(draft!.id)).category).toBe("Visual Design");

    await categories().change({ action: "rename", id: design.id, name: "Craft" }, ACTOR);
    expect(await counts()).toEqual({ Craft: 1, Business: 1 });
    for (const old of ["design", "Design", "visual-design"]) {
      const answer = await page(`${old}?page=1`.split("?")[0]!);
      expect(answer.status, old).toBe(301);
      expect(answer.headers.get("Location"), old).toBe("/category/craft");
    }
    for (const file of ["rss.xml", "atom.xml", "feed.json"]) {
      const answer = await feed("design", file);
      expect(answer.status, file).toBe(301);
      expect(answer.headers.get("Location"), file).toBe(`/category/craft/${file}`);
    }
    expect((await page("craft")).body).toMatchObject({ category: "Craft", page: { total: 1 } });

    // Back to an old name: that address is the category's own again, and no longer a redirect.
    await categories().change({ action: "rename", id: design.id, name: "Design" }, ACTOR);
    expect((await page("design")).status).toBe(200);
    expect((await page("craft")).headers.get("Location")).toBe("/category/design");
    expect(await counts()).toEqual({ Design: 1, Business: 1 });
  });

  it("shows a description on the category's page, in its meta description's place and in its feed", async () => {
    await createPosts(blog.services, blog.clock, [{ category: "Tutorials" }]);
    const tutorials = await named("Tutorials");
    await categories().change(
      { action: "describe", id: tutorials.id, description: "Step by step, start to end." },
      ACTOR,
    );
    expect((await page("tutorials")).body).toMatchObject({ description: "Step by step, start to end." });
    const { context } = createRouteTestContext(blog.services, null);
    const response = (await feedLoader(
      routeArgs(new Request(`${SITE}/category/tutorials/feed.json`), context, { category: "tutorials" }) as AnyArgs,
    )) as Response;
    expect(JSON.parse(await response.text())).toMatchObject({ description: "Step by step, start to end." });
  });

  it("keeps the writer's order, which the footer's four categories follow", async () => {
    const tutorials = await named("Tutorials");
    await categories().change({ action: "move", id: tutorials.id, to: 0 }, ACTOR);
    expect((await categories().list()).map((category) => category.name)).toEqual([
      "Tutorials",
      "Development",
      "Technology",
      "Design",
      "Business",
      "Marketing",
    ]);
    const { context } = createRouteTestContext(blog.services, null);
    const site = { ...(await blog.services.siteSettings.current()), siteUrl: SITE };
    context.set(appContext, { ...context.get(appContext), site });
    const { body } = await settle(() => layoutLoader(routeArgs(new Request(`${SITE}/`), context) as AnyArgs));
    const footer = (body as { navigation: { footer: { label: string; href: string; kind: string }[] } }).navigation
      .footer;
    expect(footer.filter((link) => link.kind === "category").map((link) => [link.label, link.href])).toEqual([
      ["Tutorials", "/category/tutorials"],
      ["Development", "/category/development"],
      ["Technology", "/category/technology"],
      ["Design", "/category/design"],
    ]);
  });

  it("deletes a category into another, moving its posts and counts, and refuses to delete the last one", async () => {
    const [moved] = await createPosts(blog.services, blog.clock, [
      { category: "Marketing" },
      { category: "Marketing" },
      { category: "Business" },
    ]);
    const marketing = await named("Marketing");
    const business = await named("Business");
    await categories().change({ action: "delete", id: marketing.id, moveTo: business.id }, ACTOR);
    expect(await counts()).toEqual({ Business: 3 });
    expect((await blog.services.posts.getPostForEditing(moved!.id)).category).toBe("Business");
    expect((await page("marketing")).headers.get("Location")).toBe("/category/business");
    expect((await categories().list()).map((category) => category.name)).not.toContain("Marketing");

    const rest = await categories().list();
    for (const category of rest.slice(1)) {
      await categories().change({ action: "delete", id: category.id, moveTo: rest[0]!.id }, ACTOR);
    }
    expect(await counts()).toEqual({ Development: 3 });
    await expect(
      categories().change({ action: "delete", id: rest[0]!.id, moveTo: rest[0]!.id }, ACTOR),
    ).rejects.toMatchObject({ code: "LAST_CATEGORY" });
  });

  it("empties every cached reader's page on a change, and answers the admin's plain forms", async () => {
    const heard: ContentTag[][] = [];
    const stop = blog.services.changes.subscribe((tags) => heard.push(tags));
    const anonymous = createRouteTestContext(blog.services).context;
    const refused = await settle(() =>
      addAction(
        routeArgs(postForm(`${SITE}/admin/categories/add`, { name: "Travel", description: "" }), anonymous) as AnyArgs,
      ),
    );
    expect(refused.headers.get("Location")).toMatch(/^\/login/);
    const editor = { ...TEST_ADMIN, id: "editor-1", username: "eddie", role: "editor" as const };
    const { context } = createRouteTestContext(blog.services, editor);
    const add = await settle(() =>
      addAction(
        routeArgs(postForm(`${SITE}/admin/categories/add`, { name: "Travel", description: "" }), context) as AnyArgs,
      ),
    );
    expect(add.status).toBe(302);
    const taken = await settle(() =>
      addAction(
        routeArgs(postForm(`${SITE}/admin/categories/add`, { name: "travel", description: "" }), context) as AnyArgs,
      ),
    );
    expect(taken).toMatchObject({ status: 409, body: { formError: expect.stringContaining("/category/travel") } });
    const travel = await named("Travel");
    const fields = { intent: "rename", category: travel.id, name: "", description: "", to: "", moveTo: "" };
    const blank = await settle(() =>
      changeAction(routeArgs(postForm(`${SITE}/admin/categories/change`, fields), context) as AnyArgs),
    );
    expect(blank).toMatchObject({ status: 400, body: { formError: "Please enter the category's name" } });
    const renamed = await settle(() =>
      changeAction(
        routeArgs(postForm(`${SITE}/admin/categories/change`, { ...fields, name: "Journeys" }), context) as AnyArgs,
      ),
    );
    expect(renamed.status).toBe(302);
    stop();
    expect(heard).toEqual([
      ["lists", "navigation"],
      ["lists", "navigation"],
    ]);
  });
});
