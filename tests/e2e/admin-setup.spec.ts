import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { uniqueSuffix } from "./admin-support";
import { findFreePort, startServer, waitForOutput } from "./server-support.ts";

/** A blog with no admin at all, started like `npm start` would, so it prints its setup link. */
async function startBlogWithoutAdmin(): Promise<{ url: string; setupLink: string; stop: () => void }> {
  const port = await findFreePort();
  const url = `http://localhost:${port}`;
  const dataDir = path.resolve(`.e2e-data/setup-${uniqueSuffix()}`);
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: `file:${dataDir}/blog.sqlite`,
    BLOG_DEMO: "0",
    LOG_LEVEL: "warn",
  });
  const stop = () => {
    server.child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [setupLink] = await waitForOutput(server, /http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]+/);
    // The link is printed as the listener opens; wait until it answers.
    await expect.poll(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.status).toBe(200);
    return { url, setupLink, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

test("the printed setup link creates the first admin once, then stops working", async ({ page }) => {
  test.setTimeout(90_000);
  const blog = await startBlogWithoutAdmin();
  try {
    expect(blog.setupLink.startsWith(`${blog.url}/setup?token=`)).toBe(true);

    const forged = await page.goto(`${blog.url}/setup?token=forged`);
    expect(forged?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This setup link is not valid" })).toBeVisible();

    const opened = await page.goto(blog.setupLink);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();

    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel(/^Password/).fill("too short");
    await page.getByLabel("Repeat password").fill("too short");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page.getByText("Password must be at least 10 characters")).toBeVisible();

    await page.getByLabel(/^Password/).fill("a long enough passphrase");
    await page.getByLabel("Repeat password").fill("a different passphrase");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page.getByText("The passwords do not match")).toBeVisible();

    await page.getByLabel(/^Password/).fill("a long enough passphrase");
    await page.getByLabel("Repeat password").fill("a long enough passphrase");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page).toHaveURL(`${blog.url}/admin`);
    await expect(page.getByText("Signed in as owner")).toBeVisible();

    const spent = await page.goto(blog.setupLink);
    expect(spent?.status()).toBe(410);
    await expect(page.getByRole("heading", { name: "Setup is complete" })).toBeVisible();

    await page.goto(`${blog.url}/admin`);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(`${blog.url}/`);
    await page.goto(`${blog.url}/login`);
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password").fill("a long enough passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${blog.url}/admin`);
  } finally {
    blog.stop();
  }
});
