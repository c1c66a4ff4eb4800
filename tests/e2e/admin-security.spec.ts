import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import {
  createPost,
  EVIL_ORIGIN,
  findPostById,
  findPostByTitle,
  SAME_ORIGIN,
  signIn,
  uniqueSuffix,
} from "./admin-support";

const ADMIN_PAGES = [
  "/admin",
  "/admin/posts",
  "/admin/posts?q=design",
  "/admin/comments",
  "/admin/users",
  "/admin/settings",
  "/admin/posts/new",
  "/admin/no-such-page",
];

/** A refusal that sends the visitor to sign in: a 302 for pages, an encoded redirect for data requests. */
async function expectSentToLogin(response: APIResponse, what: string): Promise<void> {
  if (response.status() === 202) {
    expect(await response.text(), what).toContain('"redirect","/login?redirectTo=');
    return;
  }
  expect(response.status(), what).toBe(302);
  expect(response.headers().location, what).toMatch(/^\/login\?redirectTo=%2Fadmin/);
}

function editForm(post: { title: string }, changes: Record<string, string> = {}) {
  return {
    title: `${post.title} hijacked`,
    content: "<p>Changed</p>",
    excerpt: "Changed",
    author: "Intruder",
    coverImage: "https://evil.example/cover.png",
    category: "Business",
    published: "on",
    ...changes,
  };
}

/** Every way of asking an admin action to change something, in every encoding a client might use. */
function mutationAttempts(postId: string, title: string) {
  const targets = [
    { url: "/admin/posts", form: { intent: "delete", id: postId } },
    { url: "/admin?index", form: { intent: "delete", id: postId } },
    { url: "/admin/comments", form: { intent: "delete", id: postId } },
    { url: "/admin/posts.data", form: { intent: "delete", id: postId } },
    { url: `/admin/posts/edit/${postId}`, form: editForm({ title }) },
    { url: `/admin/posts/edit/${postId}.data`, form: editForm({ title }) },
    { url: "/admin/posts/new", form: editForm({ title }, { title: `${title} created` }) },
  ];
  return targets.flatMap(({ url, form }) => [
    { url, method: "POST", options: { form } },
    { url, method: "POST", options: { multipart: form } },
    { url, method: "POST", options: { data: form } },
    {
      url,
      method: "POST",
      options: { data: new URLSearchParams(form).toString(), headers: { "Content-Type": "text/plain" } },
    },
    { url, method: "PUT", options: { form } },
    { url, method: "PATCH", options: { form } },
    { url, method: "DELETE", options: { form } },
  ]);
}

async function send(
  request: APIRequestContext,
  attempt: ReturnType<typeof mutationAttempts>[number],
  origin: Record<string, string>,
) {
  const options = attempt.options as { headers?: Record<string, string> };
  return request.fetch(attempt.url, {
    ...attempt.options,
    method: attempt.method,
    headers: { ...options.headers, ...origin },
    maxRedirects: 0,
  });
}

test("every admin page and data request sends an anonymous visitor to sign in", async ({ request }) => {
  for (const path of [...ADMIN_PAGES, "/admin/posts/edit/anyPostId123"]) {
    await expectSentToLogin(await request.get(path, { maxRedirects: 0 }), `GET ${path}`);
    const [pathname, search] = path.split("?");
    const dataPath = `${pathname}.data${search ? `?${search}` : ""}`;
    await expectSentToLogin(await request.get(dataPath, { maxRedirects: 0 }), `GET ${dataPath}`);
  }
});

test("without a session no admin action changes anything, whatever the method or encoding", async ({
  request,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signIn(admin);
  const post = await createPost(admin, { title: `Guarded ${uniqueSuffix()}`, category: "Design" });
  await admin.dispose();

  for (const attempt of mutationAttempts(post.id, post.title)) {
    const response = await send(request, attempt, SAME_ORIGIN);
    const what = `${attempt.method} ${attempt.url} ${JSON.stringify(Object.keys(attempt.options))}`;
    expect(response.status(), what).not.toBe(200);
    // 405 and 415: the method or the body was refused before any route ran.
    if (response.status() !== 405 && response.status() !== 415) await expectSentToLogin(response, what);
  }

  expect(findPostById(post.id)).toEqual(post);
  expect(findPostByTitle(`${post.title} created`)).toBeUndefined();
});

test("a cross-origin form with a valid session cookie changes nothing", async ({ request }) => {
  await signIn(request);
  const post = await createPost(request, { title: `Cross-site target ${uniqueSuffix()}`, category: "Design" });

  const forgedOrigins: Record<string, string>[] = [EVIL_ORIGIN, { Referer: "https://evil.example/attack.html" }, {}];
  for (const origin of forgedOrigins) {
    for (const attempt of mutationAttempts(post.id, post.title).filter((each) => each.method === "POST")) {
      const response = await send(request, attempt, origin);
      expect(response.status(), `${attempt.url} from ${JSON.stringify(origin)}`).toBe(403);
    }
    const logout = await request.post("/logout", { headers: origin, maxRedirects: 0 });
    expect(logout.status()).toBe(403);
  }

  expect(findPostById(post.id)).toEqual(post);
  expect(findPostByTitle(`${post.title} created`)).toBeUndefined();
  // The session survived the forged sign-out.
  const stillSignedIn = await request.get("/admin", { maxRedirects: 0 });
  expect(stillSignedIn.status()).toBe(200);
});

test("no page or response carries a password hash or the session id", async ({ request }) => {
  const signInResponse = await request.post("/login", { form: E2E_ADMIN, headers: SAME_ORIGIN, maxRedirects: 0 });
  // Besides the session, sign-in sets this browser's device cookie (issue 13).
  const setCookie = signInResponse
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith("blog_session="));
  expect(setCookie).toHaveLength(1);
  const cookieValue = setCookie[0]!.value.match(/^blog_session=([^;]+)/)![1]!;
  // The signed cookie is base64(JSON(token)).signature; the token itself must appear nowhere else.
  const token = JSON.parse(Buffer.from(decodeURIComponent(cookieValue).split(".")[0]!, "base64").toString()) as string;
  expect(token.length).toBeGreaterThan(30);

  const post = await createPost(request, { title: `Secret-free ${uniqueSuffix()}` });
  for (const path of [
    ...ADMIN_PAGES,
    `/admin/posts/edit/${post.id}`,
    "/admin/posts.data",
    `/admin/posts/edit/${post.id}.data`,
    "/",
    "/_root.data",
    "/login",
  ]) {
    const response = await request.get(path);
    const body = await response.text();
    const headers = JSON.stringify(response.headersArray());
    for (const secret of ["scrypt$", token, cookieValue, E2E_ADMIN.password]) {
      expect(body, `${path} body`).not.toContain(secret);
      expect(headers, `${path} headers`).not.toContain(secret);
    }
  }
});
