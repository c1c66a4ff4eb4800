import { describe, expect, it } from "vitest";
import { postMeta } from "./meta";

const matches = [
  { id: "root", loaderData: { site: { title: "Field Notes", description: "", siteUrl: "https://notes.example" } } },
];
const location = { pathname: "/blog/soil", search: "" };
const article = {
  id: "abc",
  slug: "soil",
  title: "Soil",
  excerpt: "On soil.",
  author: "Jane",
  coverImage: "/cover.jpg",
  category: "Design",
  tags: [],
  readingMinutes: 1,
  contentHtml: "<p>Soil.</p>",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
  canonicalUrl: "",
};

function linksOf(tags: ReturnType<typeof postMeta>) {
  const canonical = tags.find((tag) => "rel" in tag && tag.rel === "canonical") as { href?: string } | undefined;
  const ogUrl = tags.find((tag) => "property" in tag && tag.property === "og:url") as { content?: string } | undefined;
  const posting = tags
    .map((tag) => ("script:ld+json" in tag ? (tag["script:ld+json"] as Record<string, unknown>) : undefined))
    .find((data) => data?.["@type"] === "BlogPosting");
  return { canonical: canonical?.href, ogUrl: ogUrl?.content, jsonLdUrl: posting?.url };
}

describe("a post page's head", () => {
  it("names the blog's own address as canonical for a post first published here", () => {
    expect(linksOf(postMeta(article, { matches, location }))).toEqual({
      canonical: "https://notes.example/blog/soil",
      ogUrl: "https://notes.example/blog/soil",
      jsonLdUrl: "https://notes.example/blog/soil",
    });
  });

  it("names the post's canonical URL instead when it was first published elsewhere", () => {
    const elsewhere = { ...article, canonicalUrl: "https://first.example/essays/soil" };
    expect(linksOf(postMeta(elsewhere, { matches, location }))).toEqual({
      canonical: "https://first.example/essays/soil",
      ogUrl: "https://first.example/essays/soil",
      jsonLdUrl: "https://first.example/essays/soil",
    });
  });
});
