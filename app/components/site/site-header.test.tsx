import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { NavigationLink } from "#domain/navigation.ts";
import { SiteHeader } from "./site-header";

const LINKS: NavigationLink[] = [
  { id: "a", label: "Our team", href: "/our-team", kind: "page" },
  { id: "b", label: "Blog", href: "/blog", kind: "blog" },
  { id: "c", label: "Docs", href: "https://docs.example/", kind: "url" },
];

function headerAt(path: string): string {
  const Page = createRoutesStub([{ path: "*", Component: () => <SiteHeader signedIn={false} links={LINKS} /> }]);
  return renderToStaticMarkup(<Page initialEntries={[path]} />);
}

describe("the readers' header", () => {
  it("shows the menu's links in order, in the bar and in the phone's menu", () => {
    const html = headerAt("/");
    const labels = [...html.matchAll(/<li><a [^>]*>([^<]+)<\/a><\/li>/g)].map((match) => match[1]);
    expect(labels).toEqual(["Our team", "Blog", "Docs", "Our team", "Blog", "Docs"]);
    expect(html).toContain("data-menu");
  });

  it("marks the current page's link and leaves another site's link a plain one", () => {
    const html = headerAt("/our-team");
    expect(html).toMatch(/<a aria-current="page" [^>]*href="\/our-team"/);
    expect(html).toMatch(/<a href="https:\/\/docs\.example\/" rel="noopener"/);
  });
});
