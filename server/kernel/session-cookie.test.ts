import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import {
  carriesSignedCookie,
  createPendingCommentsCookie,
  PENDING_COMMENTS_COOKIE_NAME,
  SESSION_COOKIE_NAME,
} from "./session-cookie.ts";

const SECRET = "session cookie test secret, 32 characters or more";

/** The `name=value` pair of a cookie React Router signs (as the session cookie is signed). */
async function signed(value: unknown, secret = SECRET, name = SESSION_COOKIE_NAME): Promise<string> {
  return (await createCookie(name, { secrets: [secret] }).serialize(value)).split(";")[0]!;
}

describe("carriesSignedCookie", () => {
  it("agrees with React Router's own check on every cookie it signed, whatever the value's bytes", async () => {
    const cookie = createCookie(SESSION_COOKIE_NAME, { secrets: [SECRET] });
    for (const value of ["token", "a+b/c=d", "é€😀", { email: "a@b.c", nonce: "n" }, ["id-1", "id-2"]]) {
      const header = `theme=dark; ${await signed(value)}; other=1`;
      expect(await cookie.parse(header), JSON.stringify(value)).toEqual(value);
      expect(carriesSignedCookie(header, SESSION_COOKIE_NAME, SECRET), JSON.stringify(value)).toBe(true);
    }
  });

  it("refuses junk, tampered values, another server's signature and an empty value", async () => {
    const ours = await signed("token");
    const theirs = await signed("token", "another server's secret, 32 characters or more");
    const [payload, signature] = ours.slice(SESSION_COOKIE_NAME.length + 1).split(".") as [string, string];
    for (const header of [
      undefined,
      "",
      "theme=dark",
      `${SESSION_COOKIE_NAME}=x`,
      `${SESSION_COOKIE_NAME}=`,
      `${SESSION_COOKIE_NAME}=.`,
      `${SESSION_COOKIE_NAME}=%E0%A4%A`,
      theirs,
      `${SESSION_COOKIE_NAME}=${payload}x.${signature}`,
      `${SESSION_COOKIE_NAME}=${payload}.${signature.slice(1)}`,
      `${SESSION_COOKIE_NAME}=${payload}.!${signature}`,
      `x${ours}`,
      `${theirs}; ${ours}`,
    ]) {
      expect(carriesSignedCookie(header, SESSION_COOKIE_NAME, SECRET), header).toBe(false);
    }
  });

  it("reads only the cookie it is asked about", async () => {
    const pending = await signed(["comment"], SECRET, PENDING_COMMENTS_COOKIE_NAME);
    expect(carriesSignedCookie(pending, PENDING_COMMENTS_COOKIE_NAME, SECRET)).toBe(true);
    expect(carriesSignedCookie(pending, SESSION_COOKIE_NAME, SECRET)).toBe(false);
  });
});

describe("the held-comments cookie", () => {
  const cookie = createPendingCommentsCookie({ secret: SECRET, secure: true });
  const requestWith = (header: string | undefined) =>
    new Request("https://blog.test/blog/post", header === undefined ? {} : { headers: { Cookie: header } });

  it("remembers a visitor's newest 20 held comments for 30 days, signed, out of scripts' reach", async () => {
    let header: string | undefined;
    for (let index = 1; index <= 22; index += 1) {
      const setCookie = await cookie.remember(requestWith(header), `comment-${index}`);
      expect(setCookie).toMatch(/; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      header = setCookie.split(";")[0];
    }
    expect(carriesSignedCookie(header, "blog_pending_comments", SECRET)).toBe(true);
    const remembered = await cookie.read(requestWith(header));
    expect(remembered).toHaveLength(20);
    expect([remembered[0], remembered.at(-1)]).toEqual(["comment-3", "comment-22"]);
  });

  it("reads nothing from a missing, forged or malformed cookie", async () => {
    const forged = await signed(
      ["comment-1"],
      "another server's secret, 32 characters or more",
      "blog_pending_comments",
    );
    for (const header of [
      undefined,
      "blog_pending_comments=x",
      forged,
      await signed("comment-1", SECRET, "blog_pending_comments"),
    ]) {
      expect(await cookie.read(requestWith(header)), header).toEqual([]);
    }
  });
});
