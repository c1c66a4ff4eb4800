import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
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
