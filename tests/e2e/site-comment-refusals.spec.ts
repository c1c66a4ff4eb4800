import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { expect, publishedPosts, sameOrigin, test, visitorAddress } from "./site-fixtures.ts";

// Its own post, so no other test's comments change what these count.
const REFUSALS_POST = publishedPosts.at(-2)!.title;

function postAs(request: APIRequestContext, address: string, path: string, form: Record<string, string>) {
  return request.post(path, { form, headers: { ...sameOrigin, "X-Forwarded-For": address }, maxRedirects: 0 });
}

test("the honeypot is out of sight and out of the accessibility tree", async ({ page, site }) => {
  await page.goto(`/blog/${site.postId(REFUSALS_POST)}`);
  await expect(page.getByRole("textbox", { name: "Leave this field empty" })).toHaveCount(0);
  const trap = page.locator('input[name="website"]');
  await expect(trap).toHaveAttribute("tabindex", "-1");
  await expect(trap).toHaveAttribute("autocomplete", "off");
  const box = await page.locator('[aria-hidden="true"]', { has: trap }).boundingBox();
  expect(box!.width * box!.height).toBeLessThanOrEqual(1);
});

test("a filled honeypot is a 400 and stores nothing", async ({ request, site }) => {
  const path = `/blog/${site.postId(REFUSALS_POST)}`;
  const text = `Great post! ${randomUUID()}`;
  const response = await postAs(request, visitorAddress(`honeypot ${text}`), path, {
    author: "Bot",
    content: text,
    website: "https://spam.example",
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("must stay empty");
  expect(await (await request.get(path)).text()).not.toContain(text);
});

test("the same text twice is a 409, and a second comment within 15 seconds a 429 with Retry-After", async ({
  page,
  request,
  site,
}) => {
  const path = `/blog/${site.postId(REFUSALS_POST)}`;
  const text = `Thanks for writing this. ${randomUUID()}`;
  const address = visitorAddress(`duplicate ${text}`);
  expect((await postAs(request, address, path, { author: "Ann", content: text })).status()).toBe(303);

  const duplicate = await postAs(request, address, path, { author: "Ann", content: text });
  expect(duplicate.status()).toBe(409);
  expect(await duplicate.text()).toContain("You have already posted this comment.");

  const other = `Something else entirely. ${randomUUID()}`;
  const flood = await postAs(request, address, path, { author: "Ann", content: other });
  expect(flood.status()).toBe(429);
  expect(Number(flood.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(Number(flood.headers()["retry-after"])).toBeLessThanOrEqual(15);
  expect(await flood.text()).toContain("You are posting comments too quickly");

  // Another visitor may comment at once.
  const elsewhere = await postAs(request, visitorAddress(`other ${text}`), path, { author: "Bo", content: other });
  expect(elsewhere.status()).toBe(303);
  await page.goto(path);
  const items = page.getByRole("list", { name: "Comments, newest first" }).getByRole("listitem");
  await expect(items.filter({ hasText: text })).toHaveCount(1);
  await expect(items.filter({ hasText: other })).toHaveCount(1);
});
