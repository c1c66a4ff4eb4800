import { describe, expect, it } from "vitest";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import {
  blogPostingJsonLd,
  errorMeta,
  pageMeta,
  routeErrorMessage,
  seoMeta,
  SITE_DESCRIPTION,
  postMeta,
  siteNameFrom,
  withSite,
} from "./meta";

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

describe("page meta", () => {
  it("names the site in the title and always has a description", () => {
    expect(pageMeta("About", "Who writes here")).toEqual([
      { title: "About | Inkwell" },
      { name: "description", content: "Who writes here" },
    ]);
    expect(pageMeta("Terms")[1]).toEqual({ name: "description", content: SITE_DESCRIPTION });
  });

  it("titles error pages with the route's message", () => {
    const notFound = new ErrorResponse(404, "Not Found", { message: "Post not found" });
    expect(routeErrorMessage(notFound)).toBe("Post not found");
    expect(errorMeta(notFound)[0]).toEqual({ title: "Post not found | Inkwell" });
    expect(routeErrorMessage(new ErrorResponse(404, "Not Found", null))).toBe("Page Not Found");
    expect(routeErrorMessage(new Error("database password is hunter2"))).toBe("Something went wrong");
  });

  it("names the page after the site's own title and description, read from the root route's loader data", () => {
    const meta = withSite(() => pageMeta("About"));
    // The shape React Router 8 hands a meta function: each match's data under `loaderData`.
    const matches = [{ id: "root", loaderData: { site: { title: "Field Notes", description: "Mine" } } }];
    expect(meta({ matches })).toEqual([{ title: "About | Field Notes" }, { name: "description", content: "Mine" }]);
    expect(meta({ matches: [] })).toEqual(pageMeta("About"));
  });

  it("carries the site's own name into the social cards too", () => {
    const site = { title: "Field Notes", description: "Mine", siteUrl: "https://notes.example" };
    const matches = [{ id: "root", loaderData: { site } }];
    const meta = withSite((args: { matches: typeof matches }) =>
      seoMeta({
        title: "All Blog Posts",
        description: SITE_DESCRIPTION,
        matches: args.matches,
        location: { pathname: "/blog", search: "" },
      }),
    );
    const tags = meta({ matches });
    expect(tags).toContainEqual({ title: "All Blog Posts | Field Notes" });
    expect(tags).toContainEqual({ property: "og:site_name", content: "Field Notes" });
    expect(tags).toContainEqual({ name: "twitter:title", content: "All Blog Posts | Field Notes" });
    expect(tags).toContainEqual({ property: "og:description", content: "Mine" });
    expect(JSON.stringify(tags)).not.toContain("Inkwell");
  });

  it("names the site as the publisher of a post's structured data", () => {
    const matches = [{ id: "root", loaderData: { site: { title: "Field Notes", description: "Mine" } } }];
    const jsonLd = blogPostingJsonLd(
      { url: "https://notes.example", name: siteNameFrom(matches) },
      article,
      "https://notes.example/blog/soil",
    );
    expect(jsonLd.publisher).toMatchObject({ "@type": "Organization", name: "Field Notes" });
    expect(siteNameFrom([])).toBe("Inkwell");
  });
});

const postMatches = [
  { id: "root", loaderData: { site: { title: "Field Notes", description: "", siteUrl: "https://notes.example" } } },
];
const location = { pathname: "/blog/soil", search: "" };

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
    expect(linksOf(postMeta(article, { matches: postMatches, location }))).toEqual({
      canonical: "https://notes.example/blog/soil",
      ogUrl: "https://notes.example/blog/soil",
      jsonLdUrl: "https://notes.example/blog/soil",
    });
  });

  it("names the post's canonical URL instead when it was first published elsewhere", () => {
    const elsewhere = { ...article, canonicalUrl: "https://first.example/essays/soil" };
    expect(linksOf(postMeta(elsewhere, { matches: postMatches, location }))).toEqual({
      canonical: "https://first.example/essays/soil",
      ogUrl: "https://first.example/essays/soil",
      jsonLdUrl: "https://first.example/essays/soil",
    });
  });
});
