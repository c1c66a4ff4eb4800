import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { createCookie } from "react-router";
import { E2E_ADMIN, E2E_SITE_URL } from "../../playwright.config.ts";
import { openDatabase } from "../../server/kernel/db/connect.ts";
import { type DemoPost, demoPosts } from "../../server/demo/demo-content.ts";
import { htmlToText } from "../../server/kernel/html.ts";
import { SESSION_COOKIE_NAME } from "../../server/kernel/session-cookie.ts";
import { createServices } from "../../server/composition.ts";

/** The site server's own data directory (playwright.config.ts): a fresh database seeded with the demo content. */
const SITE_DATA_DIR = path.resolve(".e2e-data/site");

/** Published demo posts, newest first: the order every public list uses. */
export const publishedPosts: readonly DemoPost[] = demoPosts
  .filter((post) => post.published)
  .toSorted((a, b) => a.daysAgo - b.daysAgo);
export const draftPosts: readonly DemoPost[] = demoPosts.filter((post) => !post.published);

export function demoPost(title: string): DemoPost {
  const post = demoPosts.find((candidate) => candidate.title === title);
  if (!post) throw new Error(`No demo post titled ${title}`);
  return post;
}

/** What the site's search promises: a case-insensitive substring of the title, the text or a tag. */
export function demoSearch(query: string): DemoPost[] {
  const needle = query.trim().toLowerCase();
  return publishedPosts.filter((post) =>
    [post.title, htmlToText(post.content), post.tags.join(" ")].join("\n").toLowerCase().includes(needle),
  );
}

export const categoryOrder = [...new Set(publishedPosts.map((post) => post.category))].toSorted();

interface SiteFixtures {
  /** The id the server gave a demo post (drafts included), read from the site's database. */
  postId: (title: string) => string;
  /** A session cookie for the seeded admin, made through the same auth service the login form uses. */
  adminSessionCookie: () => Promise<{ name: string; value: string; url: string }>;
}

/** An address of this test's own in the benchmarking range (198.18.0.0/15), so per-address limits never join tests. */
export function visitorAddress(seed: string): string {
  const digest = createHash("sha256").update(seed).digest();
  return `198.${18 + (digest[0]! % 2)}.${digest[1]}.${digest[2]}`;
}

export const test = base.extend<object, { site: SiteFixtures }>({
  // Every test is its own visitor: the one-comment-per-15-seconds rule applies per address.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, provide, testInfo) => {
    await provide({ ...extraHTTPHeaders, "X-Forwarded-For": visitorAddress(testInfo.testId) });
  },
  site: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const database = await openDatabase({ dialect: "sqlite", filename: path.join(SITE_DATA_DIR, "blog.sqlite") });
      const services = createServices({
        db: database.db,
        dialect: database.dialect,
        commentIpSalt: readFileSync(path.join(SITE_DATA_DIR, "comment-ip-salt"), "utf8").trim(),
      });
      const ids = new Map((await services.posts.listAllPosts()).items.map((post) => [post.title, post.id]));
      await use({
        postId(title) {
          const id = ids.get(title);
          if (!id) throw new Error(`The site has no post titled ${title}`);
          return id;
        },
        async adminSessionCookie() {
          const { token } = await services.auth.signIn(E2E_ADMIN.email, E2E_ADMIN.password);
          const secret = readFileSync(path.join(SITE_DATA_DIR, "session-secret"), "utf8").trim();
          const header = await createCookie(SESSION_COOKIE_NAME, { secrets: [secret] }).serialize(token);
          const value = header.slice(`${SESSION_COOKIE_NAME}=`.length).split(";")[0]!;
          return { name: SESSION_COOKIE_NAME, value, url: E2E_SITE_URL };
        },
      });
      await database.close();
    },
    { scope: "worker" },
  ],
});

export { expect };

/** Sets the stored theme before any page script runs, as a returning visitor's browser would have it. */
export async function useStoredTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
}

/** Marks the window, so a test can prove a later step happened without a full page load. */
export async function markWindow(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    (window as unknown as { e2eMarker: boolean }).e2eMarker = true;
  });
  return () => page.evaluate(() => (window as unknown as { e2eMarker?: boolean }).e2eMarker === true);
}

/** Same-origin headers for posting straight to an action: the server refuses cross-site mutations. */
export const sameOrigin = { Origin: E2E_SITE_URL };
