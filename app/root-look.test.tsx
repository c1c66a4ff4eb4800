import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { InlineStylesContext } from "./lib/inline-styles";
import { staticPage } from "./lib/static-page";
import { Layout } from "./root";

const READERS_CSS = ".reader-rules{}";

/** The head the server writes for a reader's page, with the root's real Layout, under these settings. */
function renderHead(look: Record<string, string>): string {
  const rootData = { user: null, site: { title: "Jane's Garden", siteUrl: "https://garden.example", ...look } };
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
      children: [{ id: "home", index: true, Component: () => null, handle: staticPage }],
    },
  ]);
  const html = renderToString(
    <InlineStylesContext value={{ readers: READERS_CSS, everything: "" }}>
      <Stub initialEntries={["/"]} hydrationData={{ loaderData: { root: rootData, home: null } }} />
    </InlineStylesContext>,
  );
  return /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? "";
}

const styleIn = (head: string) => /<style>([\s\S]*?)<\/style>/.exec(head)?.[1];

describe("the look in a reader's head", () => {
  it("is the product's own without settings: the stylesheet alone and the SVG favicon", () => {
    const head = renderHead({});
    expect(styleIn(head)).toBe(READERS_CSS);
    expect(head).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    expect(head).not.toContain("apple-touch-icon");
    expect(head).not.toContain("manifest");
  });

  it("adds the accent and typeface as custom properties after the stylesheet, in the same element", () => {
    const style = styleIn(renderHead({ accentColor: "#1d6b3a", bodyTypeface: "mono", logo: "", siteIcon: "" }));
    expect(style?.startsWith(`${READERS_CSS}:root{`)).toBe(true);
    expect(style).toContain("--color-indigo-700:#1d6b3a");
    expect(style).toContain("--font-body:ui-monospace");
  });

  it("names the uploaded icon at each size and the manifest, instead of the SVG", () => {
    const head = renderHead({ siteIcon: "a".repeat(64) });
    expect(head).toContain('<link rel="icon" href="/favicon-32.png?v=aaaaaaaaaaaa" sizes="32x32" type="image/png"/>');
    expect(head).toContain(
      '<link rel="apple-touch-icon" href="/apple-touch-icon.png?v=aaaaaaaaaaaa" sizes="180x180"/>',
    );
    expect(head).toContain('<link rel="manifest" href="/manifest.webmanifest?v=aaaaaaaaaaaa"/>');
    expect(head).not.toContain("favicon.svg");
  });
});
