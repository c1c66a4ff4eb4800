import { DomUtils, parseDocument } from "htmlparser2";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { PostCardData } from "~/lib/post-card-data";
import { PostCard, type PostCardVariant } from "./post-card";

const post: PostCardData = {
  id: "abc_DEF-123",
  slug: "a-post-with-many-tags",
  title: "A post with many tags",
  excerpt: "x".repeat(150),
  author: "Ada Writer",
  coverImage: "https://images.example.com/cover.jpg",
  category: "Development",
  tags: ["one", "two", "three", "four", "five"],
  createdAt: "2026-03-05T10:00:00.000Z",
  readingMinutes: 4,
};

function render(variant: PostCardVariant) {
  const root = parseDocument(
    renderToStaticMarkup(
      <MemoryRouter>
        <PostCard post={post} variant={variant} />
      </MemoryRouter>,
    ),
  );
  const { findOne, getAttributeValue, getElementsByTagName, textContent } = DomUtils;
  const tagList = findOne((element) => getAttributeValue(element, "aria-label") === "Tags", root.children);
  const heading = getElementsByTagName("h3", root)[0]!;
  return {
    tags: tagList ? getElementsByTagName("li", tagList).map(textContent) : [],
    excerpt: textContent(getElementsByTagName("p", root)[0]!),
    titleHref: getAttributeValue(getElementsByTagName("a", heading)[0]!, "href"),
    hrefs: getElementsByTagName("a", root).map((link) => getAttributeValue(link, "href")),
    date: textContent(getElementsByTagName("time", root)[0]!),
    images: getElementsByTagName("img", root).length,
  };
}

describe("post card", () => {
  it("shows three tags and 120 characters of the excerpt when featured", () => {
    const card = render("featured");
    expect(card.tags).toEqual(["#one", "#two", "#three"]);
    expect(card.excerpt).toBe(`${"x".repeat(120)}…`);
  });

  it.each(["standard", "list", "compact"] as const)("shows two tags and 100 characters as %s", (variant) => {
    const card = render(variant);
    expect(card.tags).toEqual(["#one", "#two"]);
    expect(card.excerpt).toBe(`${"x".repeat(100)}…`);
  });

  it("leaves the cover out of compact cards only", () => {
    expect(render("compact").images).toBe(0);
    expect(render("standard").images).toBe(1);
  });

  it("links the title to the post and the badge to its lower-case category", () => {
    const card = render("standard");
    expect(card.titleHref).toBe("/blog/a-post-with-many-tags");
    expect(card.hrefs).toContain("/category/development");
    expect(card.date).toBe("March 5, 2026");
  });
});
