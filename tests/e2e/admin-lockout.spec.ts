import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, test } from "@playwright/test";
import { signInThroughForm } from "./admin-support";
import { findFreePort, startServer, waitForOutput } from "./server-support.ts";

// Its own server and owner: the locks these tests provoke would break the shared admin server's specs.
const OWNER = { email: "owner@example.com", password: "a passphrase nobody guesses" };
const OWNERS_ADDRESS = "198.51.100.23";
/** Failures sent at once: enough to pass the slowed answers quickly, few enough for scrypt's memory. */
const BATCH = 4;

test.describe.configure({ mode: "serial" });

let directory: string;
test.beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), "blog-lockout-"));
});
test.afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

for (const proxy of [false, true]) {
  test(`strangers exhaust the email's and the address's limits ${proxy ? "behind a proxy (TRUST_PROXY=1)" : "directly"}, and the owner's known browser still signs in`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const port = await findFreePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServer({
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATABASE_URL: `file:${directory}/${proxy ? "proxied" : "direct"}.sqlite`,
      BLOG_DEMO: "0",
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      TRUST_PROXY: proxy ? "1" : "0",
    });
    try {
      await waitForOutput(server, /Blog ready at/);
      // Behind the proxy every request arrives from it, and the proxy appends the client's
      // address as the last X-Forwarded-For entry; directly, everyone here is 127.0.0.1.
      const from = (address: string): Record<string, string> => (proxy ? { "X-Forwarded-For": address } : {});
      const failSignIn = async (email: string, address: string) => {
        const response = await fetch(`${url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: { Origin: url, ...from(address) },
          body: new URLSearchParams({ email, password: "not the password" }),
        });
        return response.status;
      };
      /** Sends failures in small batches until one is refused (429); the statuses seen. */
      const failUntilLocked = async (attempt: (index: number) => Promise<number>) => {
        const statuses: number[] = [];
        for (let index = 0; !statuses.includes(429); index += BATCH) {
          expect(index, "a lock within 25 failures").toBeLessThan(25);
          statuses.push(...(await Promise.all(Array.from({ length: BATCH }, (_, offset) => attempt(index + offset)))));
        }
        return statuses;
      };

      const owners = await browser.newContext({ baseURL: url, extraHTTPHeaders: from(OWNERS_ADDRESS) });
      const ownersPage = await owners.newPage();
      await ownersPage.goto("/login");
      await signInThroughForm(ownersPage, OWNER);
      await expect(ownersPage).toHaveURL(/\/admin$/);
      // Signed out again; the device cookie stays, as it would after the session ended.
      await owners.clearCookies({ name: "blog_session" });

      // The owner's email, from a new address each time (directly, all from the owner's own).
      expect(await failUntilLocked((index) => failSignIn(OWNER.email, `203.0.113.${index + 1}`))).toContain(401);
      // Many emails from the owner's address, until that address is refused too.
      expect(await failUntilLocked((index) => failSignIn(`stranger${index}@example.com`, OWNERS_ADDRESS))).toContain(
        401,
      );

      // A fresh browser at the owner's address is refused until both locks have lifted, even
      // with the right password; from elsewhere (behind the proxy), the email's lock still holds.
      await expectRefused(browser, url, from(OWNERS_ADDRESS), 60);
      if (proxy) await expectRefused(browser, url, from("192.0.2.200"), 15);

      await ownersPage.goto("/login");
      await signInThroughForm(ownersPage, OWNER);
      await expect(ownersPage).toHaveURL(/\/admin$/);
      await expect(ownersPage.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      await owners.close();
    } finally {
      server.child.kill("SIGTERM");
      await server.exit;
    }
  });
}

/** A browser without the device cookie, right password: told to wait `minutes`, and by Retry-After too. */
async function expectRefused(browser: Browser, url: string, headers: Record<string, string>, minutes: number) {
  const fresh = await browser.newContext({ baseURL: url, extraHTTPHeaders: headers });
  const page = await fresh.newPage();
  await page.goto("/login");
  await signInThroughForm(page, OWNER);
  await expect(page.getByRole("alert")).toHaveText(
    `Too many failed sign-in attempts. Please try again in ${minutes} minutes.`,
  );
  await expect(page).toHaveURL(/\/login/);
  await fresh.close();

  const response = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: url, ...headers },
    body: new URLSearchParams(OWNER),
  });
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan((minutes - 1) * 60);
}
