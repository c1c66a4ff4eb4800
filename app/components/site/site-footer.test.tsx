import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { NavigationLink } from "#domain/navigation.ts";
import { SiteFooter } from "./site-footer";

function footerText(fediverseHandle?: string): string {
  // The subscribe form inside reads the root's data, so the footer renders inside a data router.
  const Page = createRoutesStub([
    {
      path: "/",
      Component: () => <SiteFooter sourceUrl="https://example.com/src" fediverseHandle={fediverseHandle} />,
    },
  ]);
  const html = renderToStaticMarkup(<Page initialEntries={["/"]} />);
  return html.replace(/<[^>]+>/g, "");
}

describe("the readers' footer", () => {
  it("tells readers the handle to follow the blog by, when there is one", () => {
    expect(footerText("@blog@blog.test")).toContain("Follow @blog@blog.test on Mastodon or anywhere in the fediverse.");
    expect(footerText()).not.toContain("Follow");
  });
});

describe("the footer's menu", () => {
  const render = (links: NavigationLink[]) => {
    const Page = createRoutesStub([
      { path: "/", Component: () => <SiteFooter sourceUrl="https://example.com/src" links={links} /> },
    ]);
    return renderToStaticMarkup(<Page initialEntries={["/"]} />);
  };

  it("puts category links under Categories and the rest under Site, each in the menu's order", () => {
    const html = render([
      { id: "a", label: "Team", href: "/team", kind: "page" },
      { id: "b", label: "Design", href: "/category/design", kind: "category" },
      { id: "c", label: "Code", href: "https://code.example/", kind: "url" },
    ]);
    const column = (id: string) =>
      html
        .slice(html.indexOf(`<nav aria-labelledby="${id}"`))
        .split("</nav>")[0]!
        .replace(/<[^>]*>/g, " ");
    expect(column("footer-categories").split(/\s+/).filter(Boolean)).toEqual(["Categories", "Design"]);
    expect(column("footer-site").split(/\s+/).filter(Boolean)).toEqual(["Site", "Team", "Code"]);
  });

  it("leaves out a column with no links", () => {
    const html = render([{ id: "a", label: "Team", href: "/team", kind: "page" }]);
    expect(html).not.toContain("footer-categories");
    expect(html).toContain("footer-site");
  });
});
