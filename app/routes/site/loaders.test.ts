import { POSTS_PER_PAGE } from "#domain/pagination.ts";
import { describe, expect, it, vi } from "vitest";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import { loader as blogLoader } from "./blog";
import { loader as categoriesLoader } from "./categories";
import { loader as categoryLoader } from "./category";
import { loader as homeLoader } from "./home";
import { loader as postLoader } from "./post";
import { createRouteTestContext, routeArgs, settle } from "../../../tests/support/route-context.ts";
import { appContext } from "#server/request-context.ts";

const readFailed = () => Promise.reject(new DatabaseUnavailableError());

/** What the home and category loaders read beside the posts: the writer's words and categories. */
const siteSettings = { homeHero: () => Promise.resolve({ headline: "Notes", introductionHtml: "" }) };
const categories = {
  atAddress: (routeValue: string) => {
    const name = routeValue.charAt(0).toUpperCase() + routeValue.slice(1);
    return Promise.resolve({ category: { name, slug: routeValue, description: "" } });
  },
};

describe("site loaders when the database cannot be read", () => {
  const postsMessage = { status: 503, body: { message: "Failed to load posts. Please try again." } };

  it("home, blog and category answer 503 'Failed to load posts. Please try again.'", async () => {
    const home = createRouteTestContext({ posts: { getHomePage: readFailed }, siteSettings }, null).context;
    expect(await settle(() => homeLoader(routeArgs(new Request("http://localhost/"), home, {})))).toMatchObject(
      postsMessage,
    );
    const blog = createRouteTestContext({ posts: { listPublishedPosts: readFailed } }, null).context;
    expect(await settle(() => blogLoader(routeArgs(new Request("http://localhost/blog"), blog, {})))).toMatchObject(
      postsMessage,
    );
    const category = createRouteTestContext({ posts: { listCategoryPosts: readFailed }, categories }, null).context;
    expect(
      await settle(() =>
        categoryLoader(routeArgs(new Request("http://localhost/category/design"), category, { category: "design" })),
      ),
    ).toMatchObject(postsMessage);
  });

  it("categories answers 503 'Failed to load categories. Please try again.'", async () => {
    const { context, logger } = createRouteTestContext({ posts: { summariseCategories: readFailed } });
    expect(
      await settle(() => categoriesLoader(routeArgs(new Request("http://localhost/categories"), context, {}))),
    ).toMatchObject({
      status: 503,
      body: { message: "Failed to load categories. Please try again." },
    });
    expect(logger.error).toHaveBeenCalledOnce();
    expect(logger.error.mock.calls[0]?.[0]).toMatchObject({ code: "DATABASE_UNAVAILABLE" });
  });

  it("a post answers 503 'Failed to load post. Please try again.'", async () => {
    const context = createRouteTestContext({ posts: { getPublicPost: readFailed } }, null).context;
    expect(
      await settle(() => postLoader(routeArgs(new Request("http://localhost/blog/abc"), context, { slug: "abc" }))),
    ).toMatchObject({
      status: 503,
      body: { message: "Failed to load post. Please try again." },
    });
  });
});

describe("search", () => {
  function recordingSearch() {
    const queries: (string | undefined)[] = [];
    const context = createRouteTestContext(
      {
        posts: {
          listPublishedPosts: async (query?: string) => {
            queries.push(query);
            return { items: [], total: 0, page: 1, pageSize: POSTS_PER_PAGE };
          },
        },
      },
      null,
    ).context;
    return { queries, context };
  }

  it("cuts a very long query before it reaches the service", async () => {
    const { queries, context } = recordingSearch();
    const outcome = await settle(() =>
      blogLoader(routeArgs(new Request(`http://localhost/search?q=${"a".repeat(10_000)}`), context, {})),
    );
    expect(queries).toEqual(["a".repeat(200)]);
    expect(outcome.body).toMatchObject({ query: "a".repeat(200), posts: [] });
  });

  it("lists everything when the query is blank", async () => {
    const { queries, context } = recordingSearch();
    await settle(() => blogLoader(routeArgs(new Request("http://localhost/search?q=%20%20"), context, {})));
    expect(queries).toEqual([undefined]);
  });
});

describe("public lists", () => {
  it("hold as many posts a page as the site's posts-per-page setting says", async () => {
    const emptyPage = (_first: unknown, page: number, pageSize: number) =>
      Promise.resolve({ items: [], total: 0, page, pageSize });
    const listPublishedPosts = vi.fn(emptyPage);
    const listCategoryPosts = vi.fn(emptyPage);
    const { context } = createRouteTestContext({ posts: { listPublishedPosts, listCategoryPosts }, categories }, null);
    const app = context.get(appContext);
    context.set(appContext, { ...app, site: { ...app.site, postsPerPage: 7 } });

    const blog = await settle(() => blogLoader(routeArgs(new Request("http://localhost/blog"), context, {})));
    const search = await settle(() => blogLoader(routeArgs(new Request("http://localhost/search?q=go"), context, {})));
    const category = await settle(() =>
      categoryLoader(routeArgs(new Request("http://localhost/category/design"), context, { category: "design" })),
    );
    expect(listPublishedPosts.mock.calls).toEqual([
      [undefined, 1, 7],
      ["go", 1, 7],
    ]);
    expect(listCategoryPosts.mock.calls).toEqual([["Design", 1, 7]]);
    for (const outcome of [blog, search, category]) {
      expect(outcome.body).toMatchObject({ page: { page: 1, pageSize: 7 } });
    }
  });
});

describe("post ids", () => {
  it("answers 400 'Post ID is missing' for a blank id without asking the service", async () => {
    const context = createRouteTestContext({ posts: {} }, null).context;
    expect(
      await settle(() => postLoader(routeArgs(new Request("http://localhost/blog/%20"), context, { slug: " " }))),
    ).toMatchObject({
      status: 400,
      body: { message: "Post ID is missing" },
    });
  });
});
