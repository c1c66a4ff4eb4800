import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { staticPage } from "./lib/static-page";
import { Layout, meta } from "./root";
import { meta as categoryMeta } from "./routes/site/category";

const site = { title: "Jane's Garden", description: "Essays on soil.", siteUrl: "https://garden.example" };
const rootData = { user: null, site };
const categoryData = { category: "Design", posts: [], page: { page: 1, total: 0, pageSize: 24 } };

/** The head the server writes for a path, with the root's real Layout, links and meta. */
function renderHead(path: string): string {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      Component: () => (
        <Layout>
          <Outlet />
        </Layout>
      ),
      loader: () => rootData,
      meta: meta as never,
      children: [
        { id: "home", index: true, Component: () => null, handle: staticPage },
        {
          id: "category",
          path: "category/:category",
          Component: () => null,
          loader: () => categoryData,
          meta: categoryMeta as never,
          handle: staticPage,
        },
      ],
    },
  ]);
  const html = renderToString(
    <Stub
      initialEntries={[path]}
      hydrationData={{ loaderData: { root: rootData, home: null, category: categoryData } }}
    />,
  );
  return /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? "";
}

/** Each `<link rel="alternate">` of a head: its address and title. */
function feedLinksIn(head: string): { href: string; title: string }[] {
  return Array.from(head.matchAll(/<link\b[^>]*rel="alternate"[^>]*>/g), ([tag]) => ({
    href: /href="([^"]*)"/.exec(tag)?.[1] ?? "",
    title: (/title="([^"]*)"/.exec(tag)?.[1] ?? "").replace(/&#x27;/g, "'"),
  }));
}

describe("the feeds every page names in its head", () => {
  it("are titled with the blog's name from Settings", () => {
    expect(feedLinksIn(renderHead("/"))).toEqual([
      { href: "/rss.xml", title: "Jane's Garden (RSS)" },
      { href: "/atom.xml", title: "Jane's Garden (Atom)" },
      { href: "/feed.json", title: "Jane's Garden (JSON Feed)" },
    ]);
  });

  it("on a category's page, its own feeds are titled with the category and the blog's name", () => {
    const feeds = feedLinksIn(renderHead("/category/design"));
    expect(feeds).toContainEqual({ href: "/category/design/rss.xml", title: "Design | Jane's Garden (RSS)" });
    expect(feeds).toContainEqual({ href: "/rss.xml", title: "Jane's Garden (RSS)" });
    expect(feeds.map((feed) => feed.title).join()).not.toContain("Inkwell");
  });
});

describe("the writing apps' endpoints every page names in its head", () => {
  it("are Micropub's and IndieAuth's, on the home page and a category's alike, with no script added", () => {
    for (const path of ["/", "/category/design"]) {
      const head = renderHead(path);
      for (const [rel, href] of [
        ["micropub", "/micropub"],
        ["authorization_endpoint", "/indieauth/auth"],
        ["token_endpoint", "/indieauth/token"],
        ["indieauth-metadata", "/.well-known/oauth-authorization-server"],
      ]) {
        expect(head, `${path} ${rel}`).toContain(`<link rel="${rel}" href="${href}"/>`);
      }
      expect(head).not.toMatch(/<script[^>]*src=/);
    }
  });
});

describe("the XML-RPC endpoint every page announces", () => {
  it("names the RSD document as MarsEdit and other MetaWeblog apps look for it", () => {
    expect(renderHead("/")).toMatch(/<link rel="EditURI" type="application\/rsd\+xml" title="RSD" href="\/rsd.xml"\/>/);
    expect(renderHead("/category/design")).toContain('rel="EditURI"');
  });
});
