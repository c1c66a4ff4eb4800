import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import Blog from "./blog";
import Category from "./category";
import Home from "./home";

/** Renders a route component on the server with the loader data a test gives it. */
function renderRoute(path: string, Component: React.ComponentType, loaderData: unknown): string {
  const Stub = createRoutesStub([{ id: "page", path, Component, loader: () => loaderData }]);
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />);
}

const emptyPage = { page: 1, total: 0, pageSize: 24 };

describe("empty states", () => {
  it("a blog with no posts says 'No blog posts available.'", () => {
    const html = renderRoute("/blog", Blog as React.ComponentType, { query: "", posts: [], page: emptyPage });
    expect(html).toContain("All Blog Posts");
    expect(html).toContain("No blog posts available.");
    expect(html).not.toContain("No posts match your search criteria.");
  });

  it("a category with no posts says 'No posts available in this category.'", () => {
    const html = renderRoute("/category/marketing", Category as React.ComponentType, {
      category: "Marketing",
      posts: [],
      page: emptyPage,
    });
    expect(html).toContain("0 post(s) in this category");
    expect(html).toContain("No posts available in this category.");
    expect(html).not.toContain('aria-pressed="true"');
  });

  it("a home page with no posts says so instead of an empty feature", () => {
    const html = renderRoute("/", Home as React.ComponentType, {
      hero: { headline: "Notes on building for the web", introductionHtml: "" },
      featured: null,
      latest: [],
      categories: [],
    });
    expect(html).toContain("No blog posts available.");
    expect(html).not.toContain("Featured Post");
  });
});
