import { formatDate } from "../../app/lib/format.ts";
import { expect, test } from "./site-fixtures.ts";

test("/about introduces the team and a contact form that honestly sends nothing", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Inkwell");
  await expect(page.getByRole("region", { name: "The team" }).getByRole("heading", { level: 3 })).toHaveCount(3);
  const contact = page.getByRole("region", { name: "Contact" });
  await expect(contact.getByText("This demo form does not send messages.")).toBeVisible();
  await contact.getByLabel("Name").fill("Ann");
  await contact.getByLabel("Email").fill("ann@example.com");
  await contact.getByLabel("Message").fill("Hello");
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET") posts.push(request.url());
  });
  await contact.getByRole("button", { name: "Send message" }).click();
  await expect(contact.getByRole("status")).toHaveText("Nothing was sent: this demo form does not send messages.");
  expect(posts).toEqual([]);
  await expect(page).toHaveURL(/\/about$/);
});

test.describe("/about without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the demo form cannot even pretend to send", async ({ page }) => {
    await page.goto("/about#contact");
    await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();
    await expect(page.getByText("This demo form does not send messages.")).toBeVisible();
  });
});

for (const { path, heading } of [
  { path: "/privacy", heading: "Privacy Policy" },
  { path: "/terms", heading: "Terms of Service" },
]) {
  test(`${path} is dated today and names the age limit and the notice period`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByText(/^Last updated:/)).toHaveText(`Last updated: ${formatDate(new Date().toISOString())}`);
    await expect(page.getByRole("main")).toContainText("18 years");
    await expect(page.getByRole("main")).toContainText("30 days");
  });
}

test.describe("unknown addresses", () => {
  test("are 404 'Page Not Found' with a way home and a way back", async ({ page }) => {
    await page.goto("/about");
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page).toHaveTitle("Page Not Found | Inkwell");
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    await page.getByRole("link", { name: "Go Back" }).click();
    await expect(page).toHaveURL(/\/about$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("'Go Back' still leads somewhere: home", async ({ page }) => {
      await page.goto("/missing-page");
      await page.getByRole("link", { name: "Go Back" }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });

  test("malformed percent-encoding is a client error, never a server error", async ({ request }) => {
    for (const path of [
      "/blog/%E0%A4%A",
      "/category/%ZZ",
      "/%ZZ",
      "/blog/%",
      "/category/%E0%A4%A?view=list",
      "/%C0%AF",
    ]) {
      const status = (await request.get(path)).status();
      expect([400, 404], path).toContain(status);
    }
  });
});
