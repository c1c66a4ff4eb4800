import { describe, expect, it } from "vitest";
import { remoteAuthorName, remoteReplyText } from "./remote-reply-text.ts";

describe("a remote reply's text", () => {
  it("keeps paragraphs and line breaks, and drops the mentions a reply starts with", () => {
    const html =
      '<p><span class="h-card"><a href="https://blog.example/ap/users/blog" class="u-url mention">@<span>blog</span></a></span> Lovely post!</p>' +
      "<p>Line one<br>line two &amp; more</p>";
    expect(remoteReplyText(html)).toBe("Lovely post!\n\nLine one\nline two & more");
    expect(remoteReplyText("<p>@blog@blog.example, @ada Thanks</p>")).toBe("Thanks");
  });

  it("leaves no markup, script or style behind, only text", () => {
    const html =
      '<p onclick="x()">Hi <img src="https://x.example/t.gif"><script>alert(1)</script><style>p{}</style><b>there</b></p>';
    expect(remoteReplyText(html)).toBe("Hi there");
    expect(remoteReplyText("&lt;script&gt;alert(1)&lt;/script&gt;")).toBe("<script>alert(1)</script>");
  });

  it("is cut to the length of a comment", () => {
    const text = remoteReplyText(`<p>${"a".repeat(6000)}</p>`);
    expect([...text]).toHaveLength(5000);
    expect(text.endsWith("…")).toBe(true);
  });
});

describe("a remote author's name", () => {
  it("is their display name on one line, else their handle", () => {
    expect(remoteAuthorName("  Alice\n Example ", "@alice@social.example")).toBe("Alice Example");
    expect(remoteAuthorName("", "@alice@social.example")).toBe("@alice@social.example");
    expect(remoteAuthorName(null, "@alice@social.example")).toBe("@alice@social.example");
    expect([...remoteAuthorName("x".repeat(200), "@a@b.example")]).toHaveLength(80);
  });
});
