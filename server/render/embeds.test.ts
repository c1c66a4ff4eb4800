import { describe, expect, it } from "vitest";
import { renderPostBody } from "./post-body.ts";

const previews = new Map([
  [
    "https://example.com/a",
    { url: "https://example.com/a", title: `"Quoted" <b>title</b>`, description: "", siteName: "" },
  ],
]);

describe("embeds", () => {
  it("renders a URL alone on its line as a card, every field escaped", () => {
    expect(renderPostBody("markdown", "https://example.com/a", previews).html).toBe(
      `<p class="embed-card"><a class="embed-card-link" href="https://example.com/a" rel="noopener"><strong>"Quoted" &lt;b&gt;title&lt;/b&gt;</strong><br /><small>example.com</small></a></p>\n`,
    );
    expect(renderPostBody("markdown", "<https://example.com/a>", previews).html).toContain('class="embed-card"');
  });

  it("leaves a link with its own text, a URL in a sentence and a URL without preview as links", () => {
    for (const source of ["[Read](https://example.com/a)", "See https://example.com/a now", "https://example.com/b"])
      expect(renderPostBody("markdown", source, previews).html).not.toContain("embed-");
  });

  it("makes YouTube and Vimeo URLs links to their cookie-free players, never an iframe", () => {
    const html = renderPostBody("markdown", "https://youtu.be/dQw4w9WgXcQ\n\nhttps://vimeo.com/76979871").html;
    expect(html).toContain('href="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(html).toContain('href="https://player.vimeo.com/video/76979871?dnt=1"');
    expect(html).not.toContain("<iframe");
  });
});
