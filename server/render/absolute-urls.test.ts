import { describe, expect, it } from "vitest";
import { rewriteHtmlUrls } from "./absolute-urls.ts";

const onSite = (url: string) => (url.startsWith("bad") ? undefined : new URL(url, "https://notes.example/blog/a").href);

describe("rewriting the addresses of an HTML fragment", () => {
  it("makes every href, src and srcset candidate absolute and leaves the rest as it was", () => {
    const html =
      '<p class="x">See <a href="/blog/b" title="/not/a/url">b</a> and <a href="#h-end">end</a>.</p>' +
      '<picture><source type="image/webp" srcset="/media/h/480.webp 480w, /media/h/960.webp 960w" sizes="100vw">' +
      '<img src="/media/h/960.jpeg" srcset="/m/a,b.png 1x,/m/c.png 2x" alt="a &amp; b"></picture>';
    expect(rewriteHtmlUrls(html, onSite)).toBe(
      '<p class="x">See <a href="https://notes.example/blog/b" title="/not/a/url">b</a> and ' +
        '<a href="https://notes.example/blog/a#h-end">end</a>.</p>' +
        '<picture><source type="image/webp" srcset="https://notes.example/media/h/480.webp 480w, ' +
        'https://notes.example/media/h/960.webp 960w" sizes="100vw">' +
        '<img src="https://notes.example/media/h/960.jpeg" srcset="https://notes.example/m/a,b.png 1x, ' +
        'https://notes.example/m/c.png 2x" alt="a &amp; b"></picture>',
    );
  });

  it("reads entities in an address and writes it back escaped", () => {
    expect(rewriteHtmlUrls('<a href="/search?q=a&amp;page=2">s</a>', onSite)).toBe(
      '<a href="https://notes.example/search?q=a&amp;page=2">s</a>',
    );
  });

  it("removes an attribute whose address cannot be made absolute, and a srcset with none left", () => {
    expect(rewriteHtmlUrls('<a href="bad" rel="x">a</a><img src="/i.png" srcset="bad 1x">', onSite)).toBe(
      '<a  rel="x">a</a><img src="https://notes.example/i.png" >',
    );
  });

  it("returns a fragment without addresses untouched", () => {
    const html = "<p>No links, 1 < 2 &amp; <em>fine</em></p>";
    expect(rewriteHtmlUrls(html, onSite)).toBe(html);
  });
});
