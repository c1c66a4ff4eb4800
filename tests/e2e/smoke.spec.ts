import { expect, test } from "@playwright/test";

test("the home page is rendered on the server with the featured post", async ({ page, request }) => {
  const html = await (await request.get("/")).text();
  const featuredTitle = html.match(/<h2[^>]*>Featured Post<\/h2>[\s\S]*?<a[^>]*>([^<]+)<\/a>/)?.[1];
  expect(featuredTitle, "the raw HTML names the featured post").toBeTruthy();

  await page.goto("/");
  await expect(page.getByRole("link", { name: featuredTitle! }).first()).toBeVisible();
});

test("the health check reports the database as up", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});
