import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { findFreePort, startServer, waitForOutput } from "./server-support.ts";

/**
 * Sends only the headers of a POST declaring a body of `bytes`: the server must answer from the
 * declared size alone, without waiting for (or reading) a body. Streaming megabytes would race
 * the server closing the socket.
 */
function declareBody(url: URL, contentType: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: "POST",
      headers: { Origin: url.origin, "Content-Type": contentType, "Content-Length": String(bytes) },
    });
    outgoing.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        outgoing.destroy();
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    outgoing.on("error", reject);
    outgoing.flushHeaders();
  });
}

test.describe("operating the server", () => {
  let directory: string;
  test.beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), "blog-server-"));
  });
  test.afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  test("refuses invalid configuration with one line naming the variable", async () => {
    const { exit } = startServer({ PORT: "eighty", DATABASE_URL: `file:${directory}/blog.sqlite` });
    const result = await exit;
    expect(result.code).toBe(1);
    expect(result.output.trim()).toBe("Invalid configuration: PORT must be a port number between 0 and 65535");
  });

  test("gives up on an unreachable database within ten seconds", async () => {
    const { exit } = startServer({ DATABASE_URL: "postgres://blog:secret@127.0.0.1:1/blog" });
    const result = await exit;
    expect(result.code).toBe(1);
    expect(result.elapsedMs).toBeLessThan(10_000);
    expect(result.output).toContain("Cannot reach the database");
    expect(result.output).not.toContain("secret");
  });

  test("finishes cleanly on SIGTERM", async () => {
    const port = await findFreePort();
    const server = startServer({ PORT: String(port), DATABASE_URL: `file:${directory}/blog.sqlite`, BLOG_DEMO: "0" });
    await waitForOutput(server, /Blog ready at/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    server.child.kill("SIGTERM");
    const result = await server.exit;
    expect(result.code).toBe(0);
    expect(result.output).toContain("stopped");
  });
});

test.describe("HTTP behaviour of the running blog", () => {
  test("sends security headers with a script policy made of the page's own inline-script hashes", async ({
    request,
  }) => {
    const first = await request.get("/");
    const csp = first.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(csp.match(/script-src[^;]*/)?.[0]).not.toContain("unsafe-inline");
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["x-powered-by"]).toBeUndefined();
  });

  test("runs the page's own scripts and blocks an injected inline script", async ({ page }) => {
    await page.route("**/about", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("</body>", "<script>window.injected = true</script></body>");
      await route.fulfill({ response, body: html });
    });
    await page.goto("/about");
    // The button is enabled only by the page's own inline script: it ran.
    await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
  });

  test("caches hashed assets for a year and compresses text", async ({ request }) => {
    // Sign-in is a page that loads the application's scripts (readers' pages load none).
    const html = await (await request.get("/login")).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["content-encoding"]).toBe("gzip");
  });

  test("refuses oversized bodies and bodies of unknown size before reading them", async ({ baseURL }) => {
    const url = new URL("/blog", baseURL);
    const oversized = await declareBody(url, "application/x-www-form-urlencoded", 4 * 1024 * 1024 + 1);
    expect(oversized.status).toBe(413);
    expect(oversized.body).toBe("Payload Too Large: requests may be at most 4 MB.");

    // The admin's import upload has its own, larger limit, refused just as early.
    const importUrl = new URL("/admin/tools/import", baseURL);
    const multipart = "multipart/form-data; boundary=x";
    const tooLargeImport = await declareBody(importUrl, multipart, 66 * 1024 * 1024);
    expect(tooLargeImport.status).toBe(413);
    expect(tooLargeImport.body).toBe("Payload Too Large: imports may be at most 64 MB.");
    // 8 MB passes the size check there (and, unsigned, is sent to sign in before it is read).
    const largeImport = await declareBody(importUrl, multipart, 8 * 1024 * 1024);
    expect(largeImport.status).toBe(302);

    const chunked = await fetch(url, {
      method: "POST",
      headers: { Origin: url.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new Blob(["a=b"]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });

  test("refuses mutations from another origin or with no origin at all", async ({ request }) => {
    const forged = await request.post("/login", {
      headers: { Origin: "https://evil.example" },
      form: { email: "a@b.c", password: "x" },
    });
    expect(forged.status()).toBe(403);
    const anonymous = await request.post("/logout", { headers: { Origin: "null" } });
    expect(anonymous.status()).toBe(403);
  });
});
