import { mf2 } from "microformats-parser";
import { E2E_SITE_URL } from "../../playwright.config.ts";
import { slugFromTitle } from "../../server/kernel/slugs.ts";
import { categoryPath } from "../../domain/categories.ts";
import { DEFAULT_SITE_TITLE } from "../../domain/site-defaults.ts";
import { expect, publishedPosts, test } from "./site-fixtures.ts";

// Other sites read a post's author, date and replies from its microformats2 (issue 38): every
// post page parses, with an independent parser (microformats-parser), into one h-entry with its
// name, content, summary, dates, url, author h-card and categories, its comments as u-comment;
// lists are h-feeds of h-entries; the home page carries the site's h-card. Read-only: the demo content.

type Parsed = ReturnType<typeof mf2>;
type Item = Parsed["items"][number];

async function parse(request: { get: (url: string) => Promise<{ text: () => Promise<string> }> }, path: string) {
  const html = await (await request.get(path)).text();
  return mf2(html, { baseUrl: `${E2E_SITE_URL}${path}` });
}

const ofType = (items: readonly Item[], type: string) => items.filter((item) => item.type?.includes(type));
const text = (value: unknown) => (typeof value === "string" ? value : (value as { value?: string } | undefined)?.value);

test("every post page is one h-entry with name, content, summary, dates, url, author h-card and categories", async ({
  request,
}) => {
  for (const post of publishedPosts) {
    const path = `/blog/${slugFromTitle(post.title)}`;
    const entries = ofType((await parse(request, path)).items, "h-entry");
    expect(entries, path).toHaveLength(1);
    const { properties } = entries[0]!;
    expect(properties.name, path).toEqual([post.title]);
    expect(properties.url, path).toEqual([`${E2E_SITE_URL}${path}`]);
    expect(properties.summary, path).toEqual([post.excerpt]);
    const content = properties.content?.[0] as { html: string; value: string } | undefined;
    expect(content?.html, path).toContain("<p>");
    expect(content?.value.length, path).toBeGreaterThan(100);
    expect(new Date(text(properties.published?.[0]) ?? "").getTime(), path).not.toBeNaN();
    expect(new Date(text(properties.updated?.[0]) ?? "").getTime(), path).not.toBeNaN();
    const [author] = properties.author ?? [];
    expect(author, path).toMatchObject({ type: ["h-card"], properties: { name: [post.author] } });
    expect(properties.category, path).toEqual(expect.arrayContaining([post.category, ...post.tags]));
    expect(text(properties.photo?.[0]), path).toMatch(/^https?:\/\//);
  }
});

test("a post's comments are its u-comment entries, each with an author and text", async ({ request }) => {
  const commented = publishedPosts.filter((post) => post.comments.length > 0);
  expect(commented.length).toBeGreaterThan(0);
  for (const post of commented) {
    const path = `/blog/${slugFromTitle(post.title)}`;
    const [entry] = ofType((await parse(request, path)).items, "h-entry");
    const comments = (entry?.properties.comment ?? []) as Item[];
    // Other tests may comment on demo posts meanwhile: the demo's comments are there at least.
    expect(comments.length, path).toBeGreaterThanOrEqual(post.comments.length);
    for (const demo of post.comments) {
      const comment = comments.find((candidate) => text(candidate.properties.content?.[0]) === demo.content);
      expect(comment, `${path}: ${demo.author}`).toMatchObject({
        type: ["h-cite"],
        properties: { author: [{ type: ["h-card"], properties: { name: [demo.author] } }] },
      });
      expect(new Date(text(comment!.properties.published?.[0]) ?? "").getTime()).not.toBeNaN();
    }
  }
});

test("lists are h-feeds of their posts' h-entries, and the home page carries the site's h-card", async ({
  request,
}) => {
  for (const path of ["/blog", categoryPath(publishedPosts[0]!.category)]) {
    const feeds = ofType((await parse(request, path)).items, "h-feed");
    expect(feeds, path).toHaveLength(1);
    const entries = ofType(feeds[0]!.children ?? [], "h-entry");
    expect(entries.length, path).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(text(entry.properties.url?.[0]), path).toMatch(new RegExp(`^${E2E_SITE_URL}/blog/`));
      expect(entry.properties.name?.length, path).toBe(1);
      expect(entry.properties.author?.[0], path).toMatchObject({ type: ["h-card"] });
    }
  }
  const blog = ofType(ofType((await parse(request, "/blog")).items, "h-feed")[0]!.children ?? [], "h-entry");
  expect(blog.map((entry) => entry.properties.name?.[0])).toEqual(
    publishedPosts.slice(0, blog.length).map((post) => post.title),
  );

  const home = await parse(request, "/");
  const [card] = ofType(home.items, "h-card");
  expect(card).toMatchObject({ properties: { name: [DEFAULT_SITE_TITLE], url: [`${E2E_SITE_URL}/`] } });
  expect(ofType(home.items, "h-feed")).toHaveLength(1);
});
