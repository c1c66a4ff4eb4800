import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./scripts/ensure-chromium.ts";
import { SERVER_ENVIRONMENT, serverArguments } from "./scripts/server-process.ts";

// Two servers, each on its own fresh SQLite database with demo content, so admin tests that
// publish or delete posts never change what the public-site tests are reading.
const sitePort = Number(process.env.E2E_SITE_PORT ?? 3111);
const adminPort = Number(process.env.E2E_ADMIN_PORT ?? 3112);
export const E2E_SITE_URL = `http://localhost:${sitePort}`;
export const E2E_ADMIN_URL = `http://localhost:${adminPort}`;
export const E2E_ADMIN = { email: "admin@example.com", password: "correct horse battery staple" };
export const E2E_ABOUT_URL = "https://about.example.org/me";
export const E2E_SOURCE_URL = "https://source.example.org/blog";

function blogServer(name: string, port: number, url: string) {
  return {
    command: `rm -rf .e2e-data/${name} && node ${serverArguments().join(" ")}`,
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      ...SERVER_ENVIRONMENT,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATABASE_URL: `file:./.e2e-data/${name}/blog.sqlite`,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ABOUT_URL: E2E_ABOUT_URL,
      SOURCE_URL: E2E_SOURCE_URL,
      LOG_LEVEL: "warn",
      // Tests speak for distinct visitors through X-Forwarded-For (per-address comment rules).
      TRUST_PROXY: "1",
    },
  };
}

// The browser `npm test` found or installed (scripts/ensure-chromium.ts); flags keep it off the network.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: process.env.CI === "true",
  retries: 0,
  workers: 2,
  reporter: process.env.CI === "true" ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: findChromium(),
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    {
      name: "site",
      testMatch: /(site-.*|smoke|server-.*)\.spec\.ts/,
      use: { ...devices["Desktop Chrome"], baseURL: E2E_SITE_URL },
    },
    { name: "admin", testMatch: /admin-.*\.spec\.ts/, use: { ...devices["Desktop Chrome"], baseURL: E2E_ADMIN_URL } },
  ],
  webServer: [blogServer("site", sitePort, E2E_SITE_URL), blogServer("admin", adminPort, E2E_ADMIN_URL)],
});
