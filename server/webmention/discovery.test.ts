import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type FixturePage, startWebPages, type WebPages } from "../../tests/support/web-pages.ts";
import { discoverEndpoint } from "./discovery.ts";
import { DEFAULT_FETCH_LIMITS, fetchPage, FetchRefusedError } from "./fetch-page.ts";

// The 23 discovery tests of webmention.rocks, re-created as local pages: each page names its
// endpoint a different way, and the blog must find the one the page means, then post to it.
// Pages live on 127.0.0.1, so these fetches pass the test switch (FEDIVERSE_ALLOW_PRIVATE_ADDRESS).
const limits = { ...DEFAULT_FETCH_LIMITS, allowPrivateAddress: true };

function html(head: string, body = ""): string {
  return `<!doctype html><html><head><title>Discovery</title>${head}</head><body>${body}</body></html>`;
}

/** Each case: the page at /test/{n} (and any pages it needs), and the endpoint path it means. */
function discoveryCases(origin: string): { name: string; pages: Record<string, FixturePage>; endpoint: string }[] {
  const at = (n: number, page: FixturePage) => ({ [`/test/${n}`]: page });
  return [
    {
      name: "1: HTTP Link header, unquoted rel, relative URL",
      pages: at(1, { headers: { link: "</test/1/webmention?head=true>; rel=webmention" }, body: html("") }),
      endpoint: "/test/1/webmention?head=true",
    },
    {
      name: "2: HTTP Link header, unquoted rel, absolute URL",
      pages: at(2, { headers: { link: `<${origin}/test/2/webmention?head=true>; rel=webmention` }, body: html("") }),
      endpoint: "/test/2/webmention?head=true",
    },
    {
      name: "3: HTML <link> tag, relative URL",
      pages: at(3, { body: html('<link rel="webmention" href="/test/3/webmention">') }),
      endpoint: "/test/3/webmention",
    },
    {
      name: "4: HTML <link> tag, absolute URL",
      pages: at(4, { body: html(`<link rel="webmention" href="${origin}/test/4/webmention">`) }),
      endpoint: "/test/4/webmention",
    },
    {
      name: "5: HTML <a> tag, relative URL",
      pages: at(5, { body: html("", '<a rel="webmention" href="/test/5/webmention">endpoint</a>') }),
      endpoint: "/test/5/webmention",
    },
    {
      name: "6: HTML <a> tag, absolute URL",
      pages: at(6, { body: html("", `<a rel="webmention" href="${origin}/test/6/webmention">endpoint</a>`) }),
      endpoint: "/test/6/webmention",
    },
    {
      name: "7: HTTP Link header with strange casing",
      pages: at(7, { headers: { LinK: "</test/7/webmention?head=true>; REL=webmention" }, body: html("") }),
      endpoint: "/test/7/webmention?head=true",
    },
    {
      name: "8: HTTP Link header, quoted rel",
      pages: at(8, { headers: { link: '</test/8/webmention?head=true>; rel="webmention"' }, body: html("") }),
      endpoint: "/test/8/webmention?head=true",
    },
    {
      name: "9: multiple rel values on a <link> tag",
      pages: at(9, { body: html('<link rel="webmention somethingelse" href="/test/9/webmention">') }),
      endpoint: "/test/9/webmention",
    },
    {
      name: "10: multiple rel values on a Link header",
      pages: at(10, {
        headers: { link: '</test/10/webmention?head=true>; rel="webmention somethingelse"' },
        body: html(""),
      }),
      endpoint: "/test/10/webmention?head=true",
    },
    {
      name: "11: Link header, <link> and <a>: the header wins",
      pages: at(11, {
        headers: { link: "</test/11/webmention>; rel=webmention" },
        body: html(
          '<link rel="webmention" href="/test/11/webmention/error">',
          '<a rel="webmention" href="/test/11/webmention/error">endpoint</a>',
        ),
      }),
      endpoint: "/test/11/webmention",
    },
    {
      name: "12: rel must be webmention exactly, not a word containing it",
      pages: at(12, {
        body: html(
          '<link rel="not-webmention" href="/test/12/webmention/error"><link rel="webmention" href="/test/12/webmention">',
        ),
      }),
      endpoint: "/test/12/webmention",
    },
    {
      name: "13: a false endpoint inside an HTML comment",
      pages: at(13, {
        body: html(
          "",
          '<!-- <a href="/test/13/webmention/error" rel="webmention"></a> --><a href="/test/13/webmention" rel="webmention">endpoint</a>',
        ),
      }),
      endpoint: "/test/13/webmention",
    },
    {
      name: "14: a false endpoint in escaped HTML",
      pages: at(14, {
        body: html(
          "",
          '<code>&lt;a href="/test/14/webmention/error" rel="webmention"&gt;&lt;/a&gt;</code><a href="/test/14/webmention" rel="webmention">endpoint</a>',
        ),
      }),
      endpoint: "/test/14/webmention",
    },
    {
      name: "15: an empty href is the page itself",
      pages: at(15, { body: html('<link rel="webmention" href="">') }),
      endpoint: "/test/15",
    },
    {
      name: "16: <a> before <link>: the first in the document",
      pages: at(16, {
        body: html(
          "",
          '<a href="/test/16/webmention" rel="webmention">endpoint</a><link rel="webmention" href="/test/16/webmention/error">',
        ),
      }),
      endpoint: "/test/16/webmention",
    },
    {
      name: "17: <link> before <a>: the first in the document",
      pages: at(17, {
        body: html(
          '<link rel="webmention" href="/test/17/webmention">',
          '<a href="/test/17/webmention/error" rel="webmention">endpoint</a>',
        ),
      }),
      endpoint: "/test/17/webmention",
    },
    {
      name: "18: multiple HTTP Link headers",
      pages: at(18, {
        headers: { link: ["</test/18/webmention/error>; rel=other", "</test/18/webmention>; rel=webmention"] },
        body: html(""),
      }),
      endpoint: "/test/18/webmention",
    },
    {
      name: "19: one HTTP Link header with several values",
      pages: at(19, {
        headers: { link: '</test/19/webmention/error>; rel="other", </test/19/webmention>; rel="webmention"' },
        body: html(""),
      }),
      endpoint: "/test/19/webmention",
    },
    {
      name: "20: a <link> without href is passed over",
      pages: at(20, {
        body: html('<link rel="webmention">', '<a href="/test/20/webmention" rel="webmention">endpoint</a>'),
      }),
      endpoint: "/test/20/webmention",
    },
    {
      name: "21: the endpoint's query string is kept",
      pages: at(21, { body: html('<link rel="webmention" href="/test/21/webmention?query=yes">') }),
      endpoint: "/test/21/webmention?query=yes",
    },
    {
      name: "22: an endpoint relative to the page's path",
      pages: at(22, { body: html('<link rel="webmention" href="22/webmention">') }),
      endpoint: "/test/22/webmention",
    },
    {
      name: "23: a redirected page, its endpoint relative to where it ended",
      pages: {
        "/test/23/page": { status: 302, headers: { location: "/test/23/page/moved" } },
        "/test/23/page/moved": { body: html('<link rel="webmention" href="webmention-endpoint">') },
      },
      endpoint: "/test/23/page/webmention-endpoint",
    },
  ];
}

describe("finding a linked page's Webmention endpoint", () => {
  let web: WebPages;
  beforeAll(async () => {
    web = await startWebPages();
    for (const { pages } of discoveryCases(web.origin)) {
      for (const [path, page] of Object.entries(pages)) web.serve(path, page);
    }
  });
  afterAll(() => web.close());

  test("covers the 23 cases of webmention.rocks", () => {
    expect(discoveryCases("http://example.com")).toHaveLength(23);
  });

  test.each(discoveryCases("http://example.com").map(({ name }, index) => ({ name, index })))(
    "$name",
    async ({ index }) => {
      const { pages, endpoint } = discoveryCases(web.origin)[index]!;
      const page = await fetchPage(web.url(Object.keys(pages)[0]!), limits);
      const found = discoverEndpoint(page);
      expect(found).toBe(web.url(endpoint));
      const answer = await fetchPage(found!, limits, { source: "https://blog.example/blog/a", target: page.url });
      expect(answer.status).toBe(202);
      expect(web.posts.at(-1)).toEqual({
        path: endpoint,
        form: { source: "https://blog.example/blog/a", target: page.url },
      });
    },
  );

  test("refuses a page on this machine unless the test switch allows it, and a redirect there", async () => {
    const local = fetchPage(web.url("/test/3"), DEFAULT_FETCH_LIMITS);
    await expect(local).rejects.toThrow(FetchRefusedError);
    await expect(local).rejects.toThrow(/not a public address/);
    await expect(fetchPage("http://localhost:1/", DEFAULT_FETCH_LIMITS)).rejects.toThrow(/names this machine/);
    await expect(fetchPage("file:///etc/passwd", limits)).rejects.toThrow(/not http/);
  });

  test("reads no more of a page than the limit, and gives up on a slow one", async () => {
    web.serve("/big", { body: "x".repeat(50_000) });
    const page = await fetchPage(web.url("/big"), { ...limits, maxBytes: 1000 });
    expect(page.body).toHaveLength(1000);
    web.serve("/loop", { status: 302, headers: { location: "/loop" } });
    await expect(fetchPage(web.url("/loop"), limits)).rejects.toThrow(/redirected more than/);
  });
});
