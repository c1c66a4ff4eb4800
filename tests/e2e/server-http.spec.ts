import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { sendRaw } from "./fuzz-support.ts";
import { findFreePort, startServer, waitForOutput } from "./server-support.ts";
import { expect, publishedPosts, sameOrigin, test, visitorAddress } from "./site-fixtures.ts";

// The HTTP layer in front of React Router (server/http.ts): which methods and bodies reach an action at all.
const REFUSED_METHODS = ["TRACE", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"];
const FORM_TYPES = "application/x-www-form-urlencoded or multipart/form-data";
/** A post no other test comments on, so a comment that slipped through would show here alone. */
const GUARDED_POST = publishedPosts.at(-1)!.title;
/** Comments that test addresses go here, among the refusal tests' comments (site-comment-refusals.spec.ts). */
const ADDRESS_POST = publishedPosts.at(-2)!.title;

test("methods other than GET, HEAD and POST are refused with 405 and the allowed list", async ({ request, site }) => {
  for (const path of ["/", "/blog", `/blog/${site.postId(GUARDED_POST)}`, "/admin/posts", "/logout", "/no-such-page"]) {
    for (const method of REFUSED_METHODS) {
      const response = await request.fetch(path, { method, headers: sameOrigin, maxRedirects: 0 });
      const what = `${method} ${path}`;
      expect(response.status(), what).toBe(405);
      expect(response.headers().allow, what).toBe("GET, HEAD, POST");
      expect(response.headers()["content-type"], what).toMatch(/^text\/plain/);
      expect(await response.text(), what).toBe("Method Not Allowed: this site answers GET, HEAD, POST.");
    }
  }
});

test("a comment form sent with PUT, PATCH or DELETE adds no comment", async ({ request, site }) => {
  const postPath = `/blog/${site.postId(GUARDED_POST)}`;
  const content = `Sent with the wrong method ${randomUUID()}`;
  for (const method of ["PUT", "PATCH", "DELETE"]) {
    const response = await request.fetch(postPath, {
      method,
      form: { author: "Mallory", content },
      headers: sameOrigin,
      maxRedirects: 0,
    });
    expect(response.status(), method).toBe(405);
  }
  expect(await (await request.get(postPath)).text()).not.toContain(content);
});

test("a POST whose body is not a form is refused with 415 before any action reads it", async ({ request, site }) => {
  const postPath = `/blog/${site.postId(GUARDED_POST)}`;
  const bodies = [
    { type: "application/json", data: JSON.stringify({ author: "Mallory", content: "json" }) },
    { type: "text/plain", data: "author=Mallory&content=text" },
    { type: "application/octet-stream", data: Buffer.from([0, 1, 2, 255]) },
  ];
  for (const { type, data } of bodies) {
    const response = await request.post(postPath, { data, headers: { ...sameOrigin, "Content-Type": type } });
    expect(response.status(), type).toBe(415);
    expect(await response.text(), type).toBe(`Unsupported Media Type: send the form as ${FORM_TYPES}, not ${type}.`);
  }
  const untyped = await request.post(postPath, { headers: sameOrigin });
  expect(untyped.status()).toBe(415);
  expect(await untyped.text()).toBe(`Unsupported Media Type: send the form as ${FORM_TYPES}, not no Content-Type.`);
});

test("multipart/form-data without a boundary is a bad request", async ({ request, site }) => {
  const withoutBoundary = [
    "multipart/form-data",
    "multipart/form-data; boundary=",
    'multipart/form-data; boundary=""',
    "multipart/form-data; charset=utf-8",
  ];
  for (const type of withoutBoundary) {
    const response = await request.post(`/blog/${site.postId(GUARDED_POST)}`, {
      data: "author=Mallory",
      headers: { ...sameOrigin, "Content-Type": type },
    });
    expect(response.status(), type).toBe(400);
    expect(await response.text(), type).toBe("Bad Request: multipart/form-data needs a boundary parameter.");
  }
});

test("both form encodings, with parameters and in any case, still reach the action", async ({ request, site }) => {
  const postPath = `/blog/${site.postId(GUARDED_POST)}`;
  // An empty comment: the action answers with its field errors and stores nothing.
  const urlencoded = await request.post(postPath, {
    data: "author=&content=",
    headers: { ...sameOrigin, "Content-Type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" },
  });
  expect(urlencoded.status()).toBe(400);
  expect(await urlencoded.text()).toContain("Please enter a comment");
  const multipart = await request.post(postPath, { multipart: { author: "", content: "" }, headers: sameOrigin });
  expect(multipart.status()).toBe(400);
  expect(await multipart.text()).toContain("Please enter a comment");
});

test("the origin of a POST is checked before its content type", async ({ request }) => {
  const response = await request.post("/login", {
    data: { email: "a@example.com", password: "x" },
    headers: { Origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403);
});

test("a path with malformed percent-encoding is a bad request", async ({ request }) => {
  for (const path of [
    "/%",
    "/blog/%E0%A4%A",
    "/blog/%ED%A0%80",
    "/category/%C0%80",
    "/admin/posts/edit/%zz",
    "/x%FF.data",
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(400);
  }
});

test("a path with control characters or line breaks is a bad request", async ({ request }) => {
  for (const path of ["/%09/a%20b", "/blog/%0A", "/category/design%0D", "/%00", "/about%E2%80%A8", "/admin/%7F"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(400);
    expect(await response.text(), path).toBe("Bad Request: the path contains control characters.");
  }
});

test("a Host header or request-target that forms no URL is a bad request", async ({ baseURL }) => {
  const port = Number(new URL(baseURL!).port);
  const malformed = [
    { target: "/", host: "" },
    { target: "/", host: "a b" },
    { target: "/", host: "[::1]:99999" },
    { target: "/blog", host: "visitor@127.0.0.1" },
    { target: "http://evil.example/", host: `127.0.0.1:${port}` },
    { target: "*", host: `127.0.0.1:${port}` },
  ];
  for (const { target, host } of malformed) {
    const response = await sendRaw(port, { method: "GET", target, headers: [["Host", host]] }, 10_000);
    expect(response.status, `GET ${target} with Host: ${host}`).toBe(400);
  }
  const wellFormed = await sendRaw(port, { method: "GET", target: "/", headers: [["Host", "LOCALHOST:80"]] }, 10_000);
  expect(wellFormed.status).toBe(200);
});

test("every response forbids the browser features the blog never uses", async ({ page, request }) => {
  const asset = (await (await request.get("/login")).text()).match(/\/assets\/[\w.-]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  const responses = [
    await request.get("/"),
    await request.get("/"),
    await request.get(asset!),
    await request.get("/healthz"),
    await request.get("/no-such-page"),
    await request.get("/media/nothing-here.webp"),
    await request.get("/%"),
    await request.fetch("/", { method: "DELETE", headers: sameOrigin }),
  ];
  for (const response of responses) {
    const policy = response.headers()["permissions-policy"] ?? "";
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "browsing-topics"]) {
      expect(policy, `${response.url()} (${response.status()}) denies ${feature}`).toContain(`${feature}=()`);
    }
    // The admin's "Copy URL" buttons write to the clipboard.
    expect(policy).not.toContain("clipboard-write");
  }

  // Chromium reports a feature it does not know on every page it loads.
  const reports: string[] = [];
  page.on("console", (message) => reports.push(message.text()));
  await page.goto("/");
  await page.goto("/login");
  expect(reports.filter((text) => /permissions.policy/i.test(text))).toEqual([]);
});

test("CONNECT is refused with 405 and the allowed list, not a dropped connection", async ({ baseURL }) => {
  const port = Number(new URL(baseURL!).port);
  for (const target of ["example.com:443", `127.0.0.1:${port}`]) {
    const response = await sendRaw(port, { method: "CONNECT", target, headers: [["Host", target]] }, 10_000);
    expect(response.status, `CONNECT ${target}`).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD, POST");
  }
});

test("behind one proxy the address is the one it saw, not the leftmost X-Forwarded-For entry the client wrote", async ({
  request,
  site,
}) => {
  // TRUST_PROXY=1 (playwright.config.ts): the test client is the proxy, the rightmost entry its client.
  const path = `/blog/${site.postId(ADDRESS_POST)}`;
  const address = visitorAddress(`rotating ${randomUUID()}`);
  const comment = (forwardedFor: string) =>
    request.post(path, {
      form: { author: "Rotor", content: `From behind a proxy ${randomUUID()}` },
      headers: { ...sameOrigin, "X-Forwarded-For": forwardedFor },
      maxRedirects: 0,
    });
  expect((await comment(`203.0.113.1, ${address}`)).status()).toBe(303);
  // Same client, a different invented leftmost entry: still one comment in 15 seconds from that address.
  const rotated = await comment(`203.0.113.2, ${address}`);
  expect(rotated.status()).toBe(429);
  expect(await rotated.text()).toContain("You are posting comments too quickly");
});

test("a bug inside a database call is a 500 logged with its stack, not a 503", async () => {
  test.setTimeout(90_000);
  const directory = mkdtempSync(join(tmpdir(), "blog-bug-"));
  const port = await findFreePort();
  const file = join(directory, "blog.sqlite");
  const server = startServer({
    PORT: String(port),
    DATABASE_URL: `file:${file}`,
    SITE_URL: `http://127.0.0.1:${port}`,
  });
  try {
    await waitForOutput(server, /Blog ready at/, 60_000);
    // A date no code path writes: reading it back throws RangeError while the post's comments are read.
    const database = new SqliteDatabase(file);
    const slug = database
      .prepare(
        "update comments set created_at = 'not a date' where id = (select id from comments where status = 'approved' limit 1) " +
          "returning (select slug from posts where posts.id = comments.post_id) as slug",
      )
      .pluck()
      .get() as string;
    database.close();

    const response = await fetch(`http://127.0.0.1:${port}/blog/${slug}`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).not.toContain("Failed to load post");
    expect(body).not.toContain("RangeError");
    const line = await waitForOutput(server, /^.*"statusCode":500.*$/m);
    const logged = JSON.parse(line[0]) as { level: number; err?: { type?: string; stack?: string } };
    expect(logged.level).toBe(50);
    expect(logged.err?.type).toBe("RangeError");
    expect(logged.err?.stack).toMatch(/^RangeError: Invalid time value\n\s+at /);
  } finally {
    server.child.kill("SIGTERM");
    await server.exit;
    rmSync(directory, { recursive: true, force: true });
  }
});
