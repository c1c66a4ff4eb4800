import { describe, expect, it } from "vitest";
import { DomainError } from "../../../server/errors.ts";
import { loader as blogLoader } from "./blog";
import { loader as categoriesLoader } from "./categories";
import { loader as categoryLoader } from "./category";
import { loader as homeLoader } from "./home";
import { loader as postLoader } from "./post";
import { contextWith, routeArgs, settle } from "./route-test-support";

const readFailed = () => Promise.reject(new DomainError("READ_FAILED", "Database read failed"));

describe("site loaders when the database cannot be read", () => {
  const postsMessage = { status: 503, body: { message: "Failed to load posts. Please try again." } };

  it("home, blog and category answer 503 'Failed to load posts. Please try again.'", async () => {
    const home = contextWith({ posts: { getHomePage: readFailed } });
    expect(await settle(() => homeLoader(routeArgs("/", {}, home)))).toMatchObject(postsMessage);
    const blog = contextWith({ posts: { listPublishedPosts: readFailed } });
    expect(await settle(() => blogLoader(routeArgs("/blog", {}, blog)))).toMatchObject(postsMessage);
    const category = contextWith({ posts: { listCategoryPosts: readFailed } });
    expect(
      await settle(() => categoryLoader(routeArgs("/category/design", { category: "design" }, category))),
    ).toMatchObject(postsMessage);
  });

  it("categories answers 503 'Failed to load categories. Please try again.'", async () => {
    const context = contextWith({ posts: { summariseCategories: readFailed } });
    expect(await settle(() => categoriesLoader(routeArgs("/categories", {}, context)))).toMatchObject({
      status: 503,
      body: { message: "Failed to load categories. Please try again." },
    });
  });

  it("a post answers 503 'Failed to load post. Please try again.'", async () => {
    const context = contextWith({ posts: { getPublicPost: readFailed } });
    expect(await settle(() => postLoader(routeArgs("/blog/abc", { id: "abc" }, context)))).toMatchObject({
      status: 503,
      body: { message: "Failed to load post. Please try again." },
    });
  });
});

describe("search", () => {
  function recordingSearch() {
    const queries: (string | undefined)[] = [];
    const context = contextWith({
      posts: {
        listPublishedPosts: async (query?: string) => {
          queries.push(query);
          return [];
        },
      },
    });
    return { queries, context };
  }

  it("cuts a very long query before it reaches the service", async () => {
    const { queries, context } = recordingSearch();
    const outcome = await settle(() => blogLoader(routeArgs(`/search?q=${"a".repeat(10_000)}`, {}, context)));
    expect(queries).toEqual(["a".repeat(200)]);
    expect(outcome.body).toMatchObject({ query: "a".repeat(200), posts: [] });
  });

  it("lists everything when the query is blank", async () => {
    const { queries, context } = recordingSearch();
    await settle(() => blogLoader(routeArgs("/search?q=%20%20", {}, context)));
    expect(queries).toEqual([undefined]);
  });
});

describe("post ids", () => {
  it("answers 400 'Post ID is missing' for a blank id without asking the service", async () => {
    const context = contextWith({ posts: {} });
    expect(await settle(() => postLoader(routeArgs("/blog/%20", { id: " " }, context)))).toMatchObject({
      status: 400,
      body: { message: "Post ID is missing" },
    });
  });
});
