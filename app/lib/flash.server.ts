import { createCookie, redirect } from "react-router";

/** One-shot confirmations shown after a redirect; the cookie holds only a key, never the text. */
const FLASH_MESSAGES = {
  created: "Post created.",
  saved: "Post saved.",
  deleted: "Post deleted.",
  restored: "Revision restored.",
  // The editor stays open after these; it shows the way to the post or page beside them.
  "saved-here": "Saved.",
  "draft-saved": "Draft saved.",
  "page-created": "Page created.",
  "page-saved": "Page saved.",
  "page-deleted": "Page deleted.",
  "sending-cancelled": "Sending cancelled: the subscribers not yet emailed will not be.",
  "sending-over": "Nothing to cancel: the send had already finished.",
  "name-saved": "Display name saved.",
  "author-saved": "Author profile saved.",
  "avatar-saved": "Picture saved.",
  "avatar-removed": "Picture removed.",
  "logo-saved": "Logo saved. The site shows it now.",
  "logo-removed": "Logo removed.",
  "site-icon-saved": "Site icon saved. Browsers pick it up within the hour.",
  "site-icon-removed": "Site icon removed.",
  "password-changed": "Password changed. Your other sessions were signed out.",
  "two-factor-off": "Two-factor sign-in is off.",
  "signed-out": "Signed out.",
  "invitation-revoked": "Invitation revoked.",
  "ownership-transferred": "Ownership transferred.",
  "account-removed": "Account removed.",
  "subscriber-added": "Subscriber added.",
  "subscriber-removed": "Subscriber removed for good.",
  "fediverse-saved": "Fediverse settings saved.",
  "navigation-saved": "Navigation saved. The site shows it now.",
  "categories-saved": "Categories saved. The site shows them now.",
  "follower-approved": "Follow request approved.",
  "follower-rejected": "Follow request rejected.",
  "follower-removed": "Follower removed.",
  "app-key-revoked": "App key revoked. The app is refused from its next request.",
  "app-signed-out": "App signed out. It is refused from its next request.",
  "webhook-removed": "Webhook removed. Its URL is not called again.",
  "reply-published": "Reply published under the comment on the post.",
  "email-saved": "Email settings saved.",
  "email-saved-untested": "Email settings saved. Send a test email to turn email on.",
  "email-tested": "The test email went out: the mail server took it. Email is on.",
} as const;

export type FlashKey = keyof typeof FLASH_MESSAGES;

const flashCookie = createCookie("blog_flash", { httpOnly: true, sameSite: "lax", path: "/admin", maxAge: 60 });

const isHttps = (request: Request) => new URL(request.url).protocol === "https:";

export async function setFlash(request: Request, key: FlashKey): Promise<string> {
  return flashCookie.serialize(key, { secure: isHttps(request) });
}

/** Post/redirect/get: back to the page `to`, which shows the message once. */
export async function redirectWithFlash(request: Request, to: string, key: FlashKey): Promise<Response> {
  return redirect(to, { headers: { "Set-Cookie": await setFlash(request, key) } });
}

/** The pending message, if any, and the header that spends it. */
export async function takeFlash(
  request: Request,
): Promise<{ key?: FlashKey; message: string | undefined; headers: HeadersInit }> {
  const key: unknown = await flashCookie.parse(request.headers.get("Cookie"));
  if (typeof key !== "string" || !Object.hasOwn(FLASH_MESSAGES, key)) return { message: undefined, headers: {} };
  return {
    key: key as FlashKey,
    message: FLASH_MESSAGES[key as FlashKey],
    headers: { "Set-Cookie": await flashCookie.serialize("", { maxAge: 0, secure: isHttps(request) }) },
  };
}
