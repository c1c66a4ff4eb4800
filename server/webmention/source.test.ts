import { describe, expect, test } from "vitest";
import { linksTo, readSource } from "./source.ts";

const TARGET = "https://blog.example/blog/a-post";
const PAGE = "https://them.example/notes/1";

describe("reading a page that mentions a post", () => {
  test.each([
    ["u-in-reply-to", "reply"],
    ["u-like-of", "like"],
    ["u-repost-of", "repost"],
    ["u-bookmark-of", "bookmark"],
  ] as const)("an entry whose %s names the post is a %s", (property, kind) => {
    const html = `<div class="h-entry"><a class="${property}" href="${TARGET}">it</a><p class="e-content">Yes.</p></div>`;
    expect(readSource(html, PAGE, TARGET).kind).toBe(kind);
  });

  test("a page that only links the post is a mention, its author the page's h-card, else its host", () => {
    const carded = `<div class="h-card"><a class="p-name u-url" href="/">Dana</a></div><article class="h-entry"><p class="e-content">See <a href="${TARGET}">this</a></p></article>`;
    expect(readSource(carded, PAGE, TARGET)).toMatchObject({
      kind: "mention",
      author: { name: "Dana", url: "https://them.example/" },
    });
    expect(readSource(`<p><a href="${TARGET}">this</a></p>`, PAGE, TARGET)).toMatchObject({
      kind: "mention",
      author: { name: null, url: "https://them.example/" },
      contentHtml: "",
    });
  });

  test("finds the entry that replies inside an h-feed, and keeps only an http(s) author address", () => {
    const html = `<div class="h-feed">
      <div class="h-entry"><p class="e-content">Other</p></div>
      <div class="h-entry"><a class="p-author h-card" href="javascript:alert(1)">Eve</a>
        <a class="u-in-reply-to" href="${TARGET}">re</a><p class="e-content">Mine</p></div></div>`;
    const reading = readSource(html, PAGE, TARGET);
    expect(reading).toMatchObject({ kind: "reply", author: { name: "Eve", url: "https://them.example/" } });
    expect(reading.contentHtml).toContain("Mine");
  });

  test("a link counts by its address, relative or with a fragment, never inside a comment or as text", () => {
    expect(linksTo(`<a href="/blog/a-post#x">a</a>`, "https://blog.example/elsewhere", TARGET)).toBe(true);
    expect(linksTo(`<img src="${TARGET}">`, PAGE, TARGET)).toBe(true);
    expect(linksTo(`<!-- <a href="${TARGET}">a</a> --><p>${TARGET}</p>`, PAGE, TARGET)).toBe(false);
    expect(linksTo(`<a href="${TARGET}-2">a</a>`, PAGE, TARGET)).toBe(false);
  });
});
