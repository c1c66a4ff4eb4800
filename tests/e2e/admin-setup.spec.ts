import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_ENVIRONMENT, serverArguments } from "../../scripts/server-process.ts";
import { uniqueSuffix } from "./admin-support";

/** A blog with no admin at all, started like `npm start` would, so it prints its setup link. */
async function startBlogWithoutAdmin(): Promise<{ url: string; setupLink: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const url = `http://localhost:${port}`;
  const dataDir = path.resolve(`.e2e-data/setup-${uniqueSuffix()}`);
  const env: NodeJS.ProcessEnv = {
    ...SERVER_ENVIRONMENT,
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    DATABASE_URL: `file:${dataDir}/blog.sqlite`,
    BLOG_DEMO: "0",
    LOG_LEVEL: "warn",
  };
  const server: ChildProcess = spawn(process.execPath, serverArguments(), { env, stdio: ["ignore", "pipe", "pipe"] });
  const stop = () => {
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  let output = "";
  const setupLink = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no setup link printed:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const link = output.match(/(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]+)/)?.[1];
      if (link) {
        clearTimeout(timer);
        resolve(link);
      }
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  // The link is printed as the listener opens; wait until it answers.
  await expect.poll(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.status).toBe(200);
  return { url, setupLink, stop };
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
