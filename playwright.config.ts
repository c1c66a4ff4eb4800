import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3111);
export const E2E_BASE_URL = `http://localhost:${port}`;
export const E2E_ADMIN = { email: "admin@example.com", password: "correct horse battery staple" };

// Debian's Chromium, never a downloaded browser; flags keep it off the (closed) network.
const chromiumArgs = [
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
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    // The real production server on a fresh SQLite database with demo content.
    command: "rm -rf .e2e-data && node server.ts",
    url: `${E2E_BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: E2E_BASE_URL,
      DATABASE_URL: "file:./.e2e-data/blog.sqlite",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ABOUT_URL: "https://about.example.org/me",
      SOURCE_URL: "https://source.example.org/blog",
      LOG_LEVEL: "warn",
    },
  },
});
