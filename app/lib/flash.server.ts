import { createCookie } from "react-router";

/** One-shot confirmations shown after a redirect; the cookie holds only a key, never the text. */
const FLASH_MESSAGES = {
  created: "Post created.",
  saved: "Post saved.",
  deleted: "Post deleted.",
  restored: "Revision restored.",
} as const;

export type FlashKey = keyof typeof FLASH_MESSAGES;

const flashCookie = createCookie("blog_flash", { httpOnly: true, sameSite: "lax", path: "/admin", maxAge: 60 });

const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

export async function setFlash(request: Request, key: FlashKey): Promise<string> {
  return flashCookie.serialize(key, { secure: isHttps(request) });
}

/** The pending message, if any, and the header that spends it. */
export async function takeFlash(request: Request): Promise<{ message: string | undefined; headers: HeadersInit }> {
  const key: unknown = await flashCookie.parse(request.headers.get("Cookie"));
  if (typeof key !== "string" || !(key in FLASH_MESSAGES)) return { message: undefined, headers: {} };
  return {
    message: FLASH_MESSAGES[key as FlashKey],
    headers: { "Set-Cookie": await flashCookie.serialize("", { maxAge: 0, secure: isHttps(request) }) },
  };
}
