import { describe, expect, it } from "vitest";
import { absoluteUrl, resolveUrl } from "./site-urls";

describe("addresses on this site", () => {
  it("puts a path from the root under SITE_URL, prefix included", () => {
    expect(absoluteUrl("https://notes.example/journal", "/media/a.png")).toBe(
      "https://notes.example/journal/media/a.png",
    );
    expect(absoluteUrl("https://notes.example/", "/")).toBe("https://notes.example/");
    expect(absoluteUrl("https://notes.example", "https://images.example.com/a.jpg")).toBe(
      "https://images.example.com/a.jpg",
    );
  });

  it("never reads a path on the site as a scheme or another host", () => {
    expect(absoluteUrl("https://notes.example/j", "/javascript:alert(1)")).toBe(
      "https://notes.example/j/javascript:alert(1)",
    );
    expect(resolveUrl("https://notes.example/j", "//evil.example/x")).toMatch(/^https:\/\/notes\.example\/j\//);
    expect(resolveUrl("https://notes.example/j", "/\\evil.example/x")).toMatch(/^https:\/\/notes\.example\/j\//);
  });

  it("resolves what a post gives against the post, and refuses what is no address", () => {
    const post = "https://notes.example/j/blog/soil";
    expect(resolveUrl("https://notes.example/j", "#h-roots", post)).toBe(`${post}#h-roots`);
    expect(resolveUrl("https://notes.example/j", "notes/more", post)).toBe("https://notes.example/j/blog/notes/more");
    expect(resolveUrl("https://notes.example/j", " /media/x.png ")).toBe("https://notes.example/j/media/x.png");
    expect(resolveUrl("https://notes.example/j", "mailto:ada@example.com", post)).toBe("mailto:ada@example.com");
    expect(resolveUrl("https://notes.example/j", "http://[not a host")).toBeUndefined();
  });
});
