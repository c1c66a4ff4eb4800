import { describe, expect, it } from "vitest";
import { escapeHtml, escapeXml, withoutNonXmlCharacters } from "./escape.ts";

describe("escaping text as markup", () => {
  it("writes HTML with numeric references, quotes and apostrophes included", () => {
    expect(escapeHtml(`<a href="x">Tom's & Jerry's</a>`)).toBe(
      "&#60;a href=&#34;x&#34;&#62;Tom&#39;s &#38; Jerry&#39;s&#60;/a&#62;",
    );
  });

  it("writes XML with named references and leaves out what XML 1.0 cannot carry", () => {
    expect(escapeXml(`a<b "&' >\u0007\u0001\u0085\uFFFE\uFFFF\uD800 🦊\t\n\r`)).toBe(
      "a&lt;b &quot;&amp;' &gt; 🦊\t\n\r",
    );
  });

  it("keeps markup for a CDATA section as it is, less what XML cannot carry", () => {
    expect(withoutNonXmlCharacters("<p>Bell\u0007 & 🦊</p>")).toBe("<p>Bell & 🦊</p>");
  });
});
