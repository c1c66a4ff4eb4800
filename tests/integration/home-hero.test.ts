import { describe, expect, it } from "vitest";
import { action as settingsAction } from "../../app/routes/admin/settings.tsx";
import { loader as homeLoader } from "../../app/routes/site/home.tsx";
import { appContext } from "../../server/request-context.ts";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

/** What the settings form posts without JavaScript: every field, as a browser sends them. */
const FORM = {
  title: "Field Notes",
  description: "",
  aboutUrl: "https://notes.example/about",
  sourceUrl: "https://notes.example/source",
  postsPerPage: "10",
  timeZone: "UTC",
  footerText: "",
  homeHeadline: "Field notes from a small workshop",
  homeIntroduction: "Essays on *tools*.\n\nRead [the story](https://notes.example/story) first.",
  emailFromName: "",
  emailReplyTo: "",
  accentColor: "",
  bodyTypeface: "sans",
};

describe.each(testDialects())("the home page's headline and introduction, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const contextFor = async () => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const site = { ...(await blog.services.siteSettings.current()), siteUrl: "http://blog.test" };
    context.set(appContext, { ...context.get(appContext), site });
    return context;
  };
  const saveForm = async (fields: Partial<typeof FORM>) =>
    call(settingsAction, postForm("http://blog.test/admin/settings", { ...FORM, ...fields }), await contextFor());
  const home = async () =>
    (await call(homeLoader, new Request("http://blog.test/"), await contextFor())).body as {
      hero: { headline: string; introductionHtml: string };
    };

  it("reads as the product's own words on a blog that never saved them", async () => {
    expect((await home()).hero).toEqual({
      headline: "Notes on building for the web, written to be read slowly",
      introductionHtml:
        "<p>Practical essays on development, technology, design and the business of working independently.</p>\n",
    });
  });

  it("shows the writer's headline as text and their introduction's Markdown rendered", async () => {
    expect(await saveForm({})).toMatchObject({ status: 200, body: { saved: true } });
    expect((await home()).hero).toEqual({
      headline: "Field notes from a small workshop",
      introductionHtml:
        '<p>Essays on <em>tools</em>.</p>\n<p>Read <a href="https://notes.example/story">the story</a> first.</p>\n',
    });
  });

  it("sanitises the introduction: scripts, handlers and script links never reach the page", async () => {
    await saveForm({
      homeIntroduction: 'Hi <script>alert(1)</script><img src="x" onerror="alert(2)"> [go](javascript:alert(3))',
    });
    const { introductionHtml } = (await home()).hero;
    expect(introductionHtml).not.toMatch(/<script|onerror|href="javascript:/i);
    expect(introductionHtml).toContain("Hi ");
  });

  it("hides each when emptied, and a form without the fields keeps the product's words", async () => {
    await saveForm({ homeHeadline: "  ", homeIntroduction: "" });
    expect((await home()).hero).toEqual({ headline: "", introductionHtml: "" });
    const { homeHeadline: _headline, homeIntroduction: _introduction, ...older } = FORM;
    await call(settingsAction, postForm("http://blog.test/admin/settings", older), await contextFor());
    expect((await home()).hero.headline).toBe("Notes on building for the web, written to be read slowly");
  });

  it("refuses a headline or an introduction that is too long, with the field's message, and keeps the old", async () => {
    const refused = await saveForm({ homeHeadline: "x".repeat(121), homeIntroduction: "y".repeat(1001) });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errors: {
          homeHeadline: "Headline must be at most 120 characters",
          homeIntroduction: "Introduction must be at most 1,000 characters",
        },
      },
    });
    expect((await home()).hero.headline).toBe("Notes on building for the web, written to be read slowly");
  });

  it("tells the settings store's listeners at once, which empty the page cache (server.ts)", async () => {
    const heard: string[] = [];
    blog.services.settings.onChange((key) => heard.push(key));
    await saveForm({ homeHeadline: "A new headline" });
    expect(heard).toEqual(["site"]);
  });
});
