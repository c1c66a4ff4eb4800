import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

interface Exit {
  code: number | null;
  output: string;
  elapsedMs: number;
}

function startServer(env: Record<string, string>): { child: ChildProcess; exit: Promise<Exit>; output: () => string } {
  const started = Date.now();
  let output = "";
  const child = spawn(process.execPath, ["server.ts"], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "info", ...env },
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<Exit>((resolve) =>
    child.on("exit", (code) => resolve({ code, output, elapsedMs: Date.now() - started })),
  );
  return { child, exit, output: () => output };
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
    const port = 3190 + test.info().workerIndex;
    const server = startServer({ PORT: String(port), DATABASE_URL: `file:${directory}/blog.sqlite`, BLOG_DEMO: "0" });
    await expect.poll(() => server.output(), { timeout: 15_000 }).toContain("Blog ready at");
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    server.child.kill("SIGTERM");
    const result = await server.exit;
    expect(result.code).toBe(0);
    expect(result.output).toContain("stopped");
  });
});

test.describe("HTTP behaviour of the running blog", () => {
  test("sends security headers with a per-request script nonce", async ({ request }) => {
    const first = await request.get("/");
    const second = await request.get("/");
    const csp = first.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toBe(second.headers()["content-security-policy"]);
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["x-powered-by"]).toBeUndefined();
  });

  test("caches hashed assets for a year and compresses text", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["content-encoding"]).toBe("gzip");
  });

  test("refuses oversized bodies and bodies of unknown size before reading them", async ({ baseURL }) => {
    const url = new URL("/blog", baseURL);
    // Only the headers are sent: the server must answer from the declared size alone, without
    // waiting for (or reading) a body. Streaming 4 MB would race the server closing the socket.
    const oversized = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(url, {
        method: "POST",
        headers: {
          Origin: url.origin,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(4 * 1024 * 1024 + 1),
        },
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
    expect(oversized.status).toBe(413);
    expect(oversized.body).toBe("Payload Too Large: requests may be at most 4 MB.");

    const chunked = await fetch(url, {
      method: "POST",
      headers: { Origin: url.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new Blob(["a=b"]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });

  test("refuses mutations from another origin or with no origin at all", async ({ request, baseURL }) => {
    const forged = await request.post("/login", {
      headers: { Origin: "https://evil.example" },
      form: { email: "a@b.c", password: "x" },
    });
    expect(forged.status()).toBe(403);
    const anonymous = await request.fetch(`${baseURL}/logout`, { method: "DELETE", headers: { Origin: "null" } });
    expect(anonymous.status()).toBe(403);
  });
});
