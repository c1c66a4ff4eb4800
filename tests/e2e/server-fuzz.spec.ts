import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config.ts";
import {
  createRandom,
  describeRequest,
  type FormFields,
  type FuzzRequest,
  hostileText,
  multipartBody,
  type Random,
  type RawResponse,
  sendRaw,
  looseUtf8,
  urlComponent,
  urlencodedBody,
} from "./fuzz-support.ts";
import { type AppKeys, createAppKeys, writingAppRequest } from "./fuzz-writing-apps.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";
import { findFreePort, startServer, waitForOutput, withScratchPostgresDatabase } from "./server-support.ts";

// Over five thousand hostile requests against every route of a real production server, once on
// a fresh SQLite database and once on a fresh PostgreSQL database: whatever a client sends, the
// answer is never a 5xx (but 501, the Ghost Admin API's deliberate "not supported here"), always
// arrives, and the server stays healthy. A failure prints its
// seed; FUZZ_SEED=<seed> replays the same requests (only the post ids differ, as each fresh
// database draws its own).
const REQUEST_COUNT = 5_100;
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 20_000;
/** More comments from one address than the rate limit allows (20 in 10 minutes), so its 429 is seen too. */
const COMMENT_BURST = 22;

interface FuzzSite {
  origin: string;
  adminCookie: string;
  postIds: string[];
  categories: string[];
  app: AppKeys;
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const GHOST_EXPORT = fixture("ghost-export.json");
const WORDPRESS_EXPORT = fixture("wordpress-export.xml");

const PUBLIC_PAGES = [
  "/",
  "/blog",
  "/search",
  "/categories",
  "/about",
  "/privacy",
  "/terms",
  "/subscribe",
  "/subscribe/confirm",
  "/unsubscribe",
  "/login",
  "/login/code",
  "/invite",
  "/setup",
  "/forgot-password",
  "/reset-password",
  "/rss.xml",
  "/atom.xml",
  "/feed.json",
  "/category/design/rss.xml",
  "/sitemap.xml",
  "/sitemaps/posts-1.xml",
  "/robots.txt",
];
const RESOURCES = ["/healthz", "/logout"];
const ADMIN_PAGES = [
  "/admin",
  "/admin/posts",
  "/admin/comments",
  "/admin/comments/settings",
  "/admin/subscribers",
  "/admin/subscribers/export.csv",
  "/admin/fediverse",
  "/admin/analytics",
  "/admin/analytics/settings",
  "/admin/analytics/export.csv",
  "/admin/users",
  "/admin/settings",
  "/admin/settings/activity",
  "/admin/settings/email",
  "/admin/settings/apps",
  "/admin/settings/webhooks",
  "/admin/indieauth",
  "/admin/account",
  "/admin/tools",
  "/admin/tools/export",
  "/admin/tools/import",
  "/admin/tools/import.json",
  "/admin/media",
  "/admin/preview-render",
  "/admin/posts/new",
];
/** The paginated lists, and what a `?page=` can hold besides a page number. */
const PAGINATED = [
  "/",
  "/blog",
  "/search?q=a",
  "/admin/posts",
  "/admin/comments",
  "/admin/fediverse",
  "/admin/settings/activity",
  "/admin/users",
];
const PAGE_VALUES = [
  "0",
  "-1",
  "1",
  "2",
  "999999",
  "1e309",
  "1.5",
  "0x10",
  "",
  "NaN",
  "9".repeat(400),
  "%00",
  "%zz",
  "2&page=3",
];
const QUERY_NAMES = [
  "q",
  "page",
  "redirectTo",
  "token",
  "confirm",
  "_routes",
  "index",
  "p",
  "version",
  "status",
  "post",
  "saved",
  "state",
  "after",
];
const WRONG_METHODS = ["TRACE", "PUT", "PATCH", "DELETE", "PROPFIND", "OPTIONS", "MKCOL", "LOCK", "PURGE", "FOO"];
const WRONG_CONTENT_TYPES = [
  "application/json",
  "text/plain",
  "application/octet-stream",
  "multipart/form-data",
  "multipart/mixed; boundary=x",
  "text/html; charset=utf-8",
  "*/*",
  "application/x-www-form-urlencoded-but-not",
];

function address(random: Random): string {
  if (random.chance(0.03)) return random.pick(["not-an-address", "::1", "1.2.3.4, ".repeat(300), "", "999.1.1.1"]);
  return `10.${random.below(256)}.${random.below(256)}.${random.below(256)}`;
}

/** Entries a client writes before the one its proxy adds: never the address the blog counts (TRUST_PROXY=1). */
const FORGED_HOPS = [
  "127.0.0.1",
  "::1",
  "192.0.2.1",
  "0.0.0.0",
  "unknown",
  "not an address",
  "999.999.999.999",
  "[::1]:443",
  "10.0.0.1:8080",
  "",
  "_hidden",
  "%zz",
  "1.2.3.4".repeat(300),
];

/** X-Forwarded-For as a proxy forwards it: mostly one address, sometimes after a chain the client forged. */
function forwardedFor(random: Random): string {
  if (!random.chance(0.25)) return address(random);
  const forged = Array.from({ length: 1 + random.below(5) }, () => random.pick(FORGED_HOPS));
  return [...forged, address(random)].join(random.pick([", ", ",", " , "]));
}

function postId(random: Random, site: FuzzSite): string {
  if (random.chance(0.5)) return random.pick(site.postIds);
  return random.pick([
    () => urlComponent(random),
    () => `${random.pick(site.postIds)}${urlComponent(random)}`,
    () => "x".repeat(1 + random.below(2_000)),
    () => random.pick(["%20", "%2F", "..", "%2E%2E", "-1", "0", "null", "%00"]),
  ])();
}

function query(random: Random): string {
  const count = random.below(4);
  if (count === 0) return "";
  const pairs = Array.from({ length: count }, () => `${random.pick(QUERY_NAMES)}=${urlComponent(random)}`);
  return `?${pairs.join("&")}`;
}

/** React Router's data requests for the same URL: `/blog` → `/blog.data`, `/` → `/_root.data`. */
function maybeData(random: Random, pathname: string): string {
  if (!random.chance(0.25)) return pathname;
  return pathname === "/" ? "/_root.data" : `${pathname}.data`;
}

/** A value shaped like a signed cookie (payload, dot, 43 characters of signature) that this server never signed. */
const FORGED_SIGNED_VALUE = `InRva2VuIg%3D%3D.${"A".repeat(43)}`;

/** Junk in each cookie the blog signs: such a visitor is anonymous and may be served the page cache. */
function junkCookie(random: Random, site: FuzzSite): string {
  const name = random.pick(["blog_session", "blog_pending_comments", "blog_device", "blog_2fa"]);
  return random.pick([
    `${name}=x`,
    `${name}=`,
    `${name}=.`,
    `${name}=${FORGED_SIGNED_VALUE}`,
    `${name}=${urlComponent(random)}`,
    `blog_session=x; ${site.adminCookie}`,
    `${name}=${FORGED_SIGNED_VALUE}; ${name}=${FORGED_SIGNED_VALUE}`,
  ]);
}

/** Cookies as a signed-in admin, an anonymous visitor or a tamperer would send them. */
function cookie(random: Random, site: FuzzSite, signedIn: boolean): [string, string][] {
  if (signedIn) return [["Cookie", site.adminCookie]];
  const roll = random.below(10);
  if (roll < 5) return [];
  if (roll < 7) return [["Cookie", `${site.adminCookie.slice(0, -3)}${random.pick(["abc", "%zz", "=="])}`]];
  if (roll < 9) return [["Cookie", junkCookie(random, site)]];
  return [["Cookie", `blog_session=${urlComponent(random)}; theme=${urlComponent(random)}`]];
}

function headers(random: Random, site: FuzzSite, options: { signedIn: boolean; post: boolean }): [string, string][] {
  const list: [string, string][] = [["X-Forwarded-For", forwardedFor(random)]];
  if (options.post) {
    const origin = random.chance(0.9)
      ? site.origin
      : random.pick(["https://evil.example", "null", "", "http://[", "x".repeat(5_000)]);
    list.push(["Origin", origin]);
  }
  list.push(...cookie(random, site, options.signedIn));
  if (random.chance(0.05)) list.push(["Accept-Encoding", "gzip, deflate, br"]);
  if (random.chance(0.05))
    list.push([
      "Accept-Language",
      hostileText(random)
        .slice(0, 1_000)
        .replace(/[^\x20-\x7e]/g, ""),
    ]);
  if (random.chance(0.03)) list.push(["Expect", "100-continue"]);
  return list;
}

function formFields(random: Random, target: string, site: FuzzSite): FormFields {
  const text = () => hostileText(random);
  if (target.startsWith("/login/code")) {
    return [
      ["code", random.chance(0.5) ? String(random.below(1e6)).padStart(6, "0") : text()],
      ["redirectTo", text()],
      ["robots", text()],
    ];
  }
  if (target.startsWith("/subscribe")) {
    return [
      ["email", random.chance(0.5) ? `fuzz${random.below(1e9)}@example.com` : text()],
      ["website", random.chance(0.1) ? text() : ""],
    ];
  }
  if (target.startsWith("/unsubscribe")) return [["List-Unsubscribe", random.pick(["One-Click", text()])]];
  if (target.startsWith("/invite")) {
    const password = text();
    return [
      ["token", text()],
      ["displayName", text()],
      ["password", password],
      ["confirmPassword", random.chance(0.5) ? password : text()],
    ];
  }
  if (target.startsWith("/login")) {
    const email = random.chance(0.5) ? `fuzz${random.below(1e9)}@example.com` : text();
    return [
      ["email", email],
      ["password", text()],
      ["redirectTo", text()],
    ];
  }
  if (target.startsWith("/blog/")) {
    return [
      ["author", random.chance(0.5) ? "Fuzzy Visitor" : text()],
      ["content", random.chance(0.5) ? `A fair comment ${random.below(1e9)}` : text()],
    ];
  }
  if (target.startsWith("/setup")) {
    const password = text();
    return [
      ["token", text()],
      ["email", text()],
      ["password", password],
      ["confirmPassword", random.chance(0.5) ? password : text()],
    ];
  }
  if (target.startsWith("/admin/posts/new") || target.startsWith("/admin/posts/edit")) {
    return [
      ["title", text()],
      ["content", random.chance(0.2) ? `<p>${text()}</p>`.repeat(1 + random.below(50)) : text()],
      ["excerpt", text()],
      ["author", text()],
      ["coverImage", random.chance(0.5) ? `https://example.com/${urlComponent(random)}.png` : text()],
      ["category", random.chance(0.5) ? random.pick(["Design", "Business", "Development"]) : text()],
      ["tags", text()],
      ["tags", text()],
      ["newTags", Array.from({ length: random.below(30) }, text).join(",")],
      ["published", random.pick(["on", "off", text()])],
    ];
  }
  if (target.startsWith("/admin/comments/settings")) {
    return [
      ["holdAll", random.pick(["on", "", text()])],
      ["blocklist", text()],
      ["closeAfterDays", random.pick(["", "30", "0", "-5", "1e309", text()])],
    ];
  }
  if (target.startsWith("/admin/comments")) {
    return [
      ["intent", random.chance(0.7) ? random.pick(["approve", "unapprove", "spam", "delete"]) : text()],
      ["id", random.chance(0.3) ? postId(random, site) : text()],
      ["status", random.pick(["pending", "approved", "spam", text()])],
      ["back", text()],
      ["inPlace", random.pick(["1", text()])],
      ["q", text()],
    ];
  }
  if (target.startsWith("/admin/fediverse")) {
    return [
      // A valid handle is only ever "blog", so no other test finds the blog under another name.
      ["handle", random.pick(["blog", "", "a b", "x".repeat(31), `${text()} !`])],
      ["approveFollowsByHand", random.pick(["", text()])],
      ["blocked", random.chance(0.5) ? "spam.example\nhttps://bad.example/users/x\nnot a server" : text()],
      ["intent", random.pick(["approve", "reject", "remove", text()])],
      ["id", text()],
      ["back", text()],
    ];
  }
  if (target.startsWith("/forgot-password")) {
    return [["email", random.chance(0.5) ? `fuzz${random.below(1e9)}@example.com` : text()]];
  }
  if (target.startsWith("/reset-password")) {
    const password = text();
    return [
      ["token", text()],
      ["password", password],
      ["confirmPassword", random.chance(0.5) ? password : text()],
    ];
  }
  if (target.startsWith("/admin/settings/email")) {
    return [
      ["host", random.pick(["smtp.example.com", "127.0.0.1", "[::1]", text()])],
      ["port", random.pick(["587", "0", "65536", "1e309", text()])],
      ["security", random.pick(["starttls", "tls", "none", text()])],
      ["user", text()],
      ["password", text()],
      ["fromAddress", random.pick(["news@blog.example", text()])],
      ["to", random.pick(["fuzz@example.com", text()])],
    ];
  }
  if (target.startsWith("/admin/settings/webhooks") || target.startsWith("/admin/link-preview")) {
    // Never a public address: a delivery or a preview would leave the machine.
    return [
      ["event", random.pick(["post.published", "comment.received", text()])],
      ["url", random.pick(["http://127.0.0.1:1/hook", "http://169.254.169.254/latest", "http://[::1]/", text()])],
      ["id", text()],
    ];
  }
  if (target.startsWith("/admin/settings/apps")) {
    return [
      ["name", text()],
      ["scope", random.pick(["drafts", "publish", text()])],
      ["id", text()],
      ["client", text()],
    ];
  }
  if (target.startsWith("/admin/writing-view")) return [["view", random.pick(["visual", "markdown", text()])]];
  if (target.startsWith("/admin/settings")) {
    return [
      ["title", text()],
      ["description", text()],
      ["footerText", text()],
      ["postsPerPage", random.pick(["10", "0", "-1", "1000000", "1.5", text()])],
      ["timeZone", random.pick(["Europe/Paris", "UTC", "Mars/Olympus", text()])],
      ["aboutUrl", random.chance(0.5) ? `https://example.com/${urlComponent(random)}` : text()],
      ["sourceUrl", text()],
    ];
  }
  if (target.startsWith("/admin/users")) {
    return [
      // Never "transfer" or "remove" a real account: the hostile ids below match none.
      ["intent", random.pick(["invite", "revoke", "remove", "transfer", text()])],
      ["email", random.chance(0.5) ? `fuzz${random.below(1e9)}@example.com` : text()],
      ["id", text()],
    ];
  }
  if (target.startsWith("/admin/account")) {
    const password = text();
    return [
      ["intent", random.pick(["start", "confirm", "disable", "sign-out-session", "sign-out-others", text()])],
      ["displayName", text()],
      ["currentPassword", text()],
      ["password", text()],
      ["newPassword", password],
      ["confirmPassword", random.chance(0.5) ? password : text()],
      ["code", text()],
      ["id", text()],
    ];
  }
  if (target.startsWith("/admin/tools/import")) return importOptions(random);
  if (target.startsWith("/admin")) {
    return [
      ["intent", random.chance(0.7) ? "delete" : text()],
      ["id", postId(random, site)],
      ["q", text()],
    ];
  }
  return random.chance(0.5) ? [] : [[text().slice(0, 50) || "field", text()]];
}

/** The import form's option fields, right or wrong. */
function importOptions(random: Random): FormFields {
  return [
    [
      "categoryMap",
      random.pick(["", '{"woodworking": "Tutorials"}', '{"a": "Nope"}', "[1,2]", "{", hostileText(random)]),
    ],
    ["defaultCategory", random.pick(["Technology", "Design", "", hostileText(random)])],
    ["pages", random.pick(["skip", "posts", "", hostileText(random)])],
  ];
}

/** Any JSON value, often of the wrong type for where it lands. */
function jsonValue(random: Random, depth = 0): unknown {
  const roll = random.below(depth > 2 ? 6 : 9);
  if (roll < 3) return hostileText(random);
  if (roll === 3) return random.pick([0, -1, 1e308, 1.5, 2 ** 53 + 1]);
  if (roll === 4) return random.pick([null, true, false]);
  if (roll === 5) return random.pick(["2025-01-01T00:00:00.000Z", "2025-13-45", "yesterday", ""]);
  if (roll < 8) return Array.from({ length: random.below(4) }, () => jsonValue(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: random.below(4) }, () => [
      random.pick(["id", "title", "html", "x", "__proto__"]),
      jsonValue(random, depth + 1),
    ]),
  );
}

/** A row whose known fields hold hostile values of any type. */
function hostileRow(random: Random, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter(() => random.chance(0.8)).map((field) => [field, jsonValue(random)]));
}

const GHOST_POST_FIELDS = [
  "id",
  "title",
  "slug",
  "html",
  "status",
  "type",
  "feature_image",
  "custom_excerpt",
  "created_at",
  "published_at",
  "updated_at",
  "mobiledoc",
  "lexical",
];
const OWN_POST_FIELDS = [
  "id",
  "title",
  "content",
  "excerpt",
  "author",
  "coverImage",
  "category",
  "published",
  "commentsClosed",
  "createdAt",
  "updatedAt",
  "tags",
];
const OWN_COMMENT_FIELDS = ["id", "postId", "author", "content", "createdAt", "status", "heldReason"];

/** What an import upload's file holds: the real fixtures (whole or cut short), or hostile look-alikes. */
function importFile(random: Random): { name: string; content: Buffer } {
  const cut = (bytes: Buffer) => (random.chance(0.3) ? bytes.subarray(0, random.below(bytes.length)) : bytes);
  const text = () => hostileText(random);
  return random.pick([
    () => ({ name: "ghost.json", content: cut(GHOST_EXPORT) }),
    () => ({ name: "wordpress.xml", content: cut(WORDPRESS_EXPORT) }),
    () => {
      const rows = Array.from({ length: 1 + random.below(3) }, () => hostileRow(random, GHOST_POST_FIELDS));
      const data = {
        posts: random.chance(0.9) ? rows : jsonValue(random),
        tags: random.chance(0.5) ? [{ id: "t", name: text(), slug: text() }] : jsonValue(random),
        posts_tags: random.chance(0.5) ? [{ post_id: jsonValue(random), tag_id: "t" }] : jsonValue(random),
        users: random.chance(0.5) ? [{ id: "u", name: text() }] : jsonValue(random),
        posts_authors: jsonValue(random),
      };
      return {
        name: "ghost.json",
        content: Buffer.from(JSON.stringify({ db: random.chance(0.9) ? [{ data }] : jsonValue(random) })),
      };
    },
    () => {
      const document = {
        format: "inkwell-export",
        version: random.chance(0.8) ? 1 : jsonValue(random),
        site: random.chance(0.7) ? { [text()]: jsonValue(random) } : jsonValue(random),
        posts: Array.from({ length: random.below(3) }, () => hostileRow(random, OWN_POST_FIELDS)),
        comments: random.chance(0.8)
          ? Array.from({ length: random.below(3) }, () => hostileRow(random, OWN_COMMENT_FIELDS))
          : jsonValue(random),
        users: jsonValue(random),
        importSources: random.chance(0.5)
          ? [{ sourceKey: jsonValue(random), targetId: jsonValue(random) }]
          : jsonValue(random),
      };
      return { name: "inkwell.json", content: looseUtf8(JSON.stringify(document)) };
    },
    () => {
      const value = () =>
        random.pick([() => `<![CDATA[${text()}]]>`, () => text().replace(/[<&]/g, ""), () => text()])();
      const item = `<item><title>${value()}</title><content:encoded>${value()}</content:encoded><wp:post_id>${value()}</wp:post_id><wp:post_date_gmt>${value()}</wp:post_date_gmt><wp:status>${value()}</wp:status><wp:post_type>${random.pick(["post", "page", "attachment", value()])}</wp:post_type><category domain="${random.pick(["category", "post_tag", value()])}" nicename="x">${value()}</category><wp:comment><wp:comment_id>${value()}</wp:comment_id><wp:comment_content>${value()}</wp:comment_content><wp:comment_approved>${random.pick(["1", "0", "spam", value()])}</wp:comment_approved></wp:comment></item>`;
      const xml = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel>${item.repeat(1 + random.below(3))}</channel></rss>`;
      return { name: "wordpress.xml", content: looseUtf8(xml) };
    },
    () => ({
      name: text().slice(0, 200) || "x",
      content: Buffer.from(Array.from({ length: random.below(3_000) }, () => random.below(256))),
    }),
  ])();
}

function formTarget(random: Random, site: FuzzSite): { target: string; admin: boolean } {
  const id = postId(random, site);
  const target = random.pick([
    "/login",
    "/login/code",
    "/invite",
    "/subscribe",
    `/unsubscribe?token=${urlComponent(random)}`,
    "/logout",
    "/admin/comments",
    "/admin/comments/settings",
    "/admin/subscribers/add",
    "/admin/subscribers/remove",
    "/admin/subscribers/import",
    "/admin/fediverse/settings",
    "/admin/fediverse/followers",
    "/admin/analytics/settings",
    "/admin/settings",
    "/admin/settings/email/save",
    "/admin/settings/email/test",
    "/admin/settings/apps/create",
    "/admin/settings/apps/revoke",
    "/admin/settings/apps/sign-out",
    "/admin/settings/webhooks/create",
    "/admin/settings/webhooks/remove",
    "/admin/link-preview",
    "/admin/writing-view",
    "/forgot-password",
    "/reset-password",
    "/admin/users/invite",
    "/admin/users/manage",
    "/admin/account/profile",
    "/admin/account/password",
    "/admin/account/two-factor",
    "/admin/account/sessions",
    "/admin/tools",
    "/admin/tools/export",
    "/admin/tools/import",
    "/admin/media",
    "/admin/preview-render",
    `/admin/posts/${id}/autosave`,
    `/admin/posts/${id}/preview-link`,
    `/blog/${id}`,
    `/blog/${id}`,
    "/setup",
    "/admin/posts",
    "/admin?index",
    "/admin/posts/new",
    `/admin/posts/edit/${id}`,
    `/${urlComponent(random)}`,
  ]);
  const withData = random.chance(0.25) && !target.includes("?") ? `${target}.data` : target;
  return { target: withData, admin: target.startsWith("/admin") };
}

function formBody(random: Random, fields: FormFields): { contentType: string; body: Buffer } {
  if (random.chance(0.6)) {
    return { contentType: "application/x-www-form-urlencoded", body: urlencodedBody(fields, random) };
  }
  const boundary = `----fuzz${random.below(1e9)}`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: multipartBody(fields, boundary, random) };
}

type Generator = (random: Random, site: FuzzSite) => FuzzRequest;

const ACTIVITY_ACCEPTS = [
  "application/activity+json",
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  "application/jrd+json",
  "application/json",
  "text/html",
  "*/*",
];

/**
 * A request a fediverse server (or someone posing as one) sends: WebFinger, NodeInfo, the actor
 * and its collections with hostile cursors, a post's Article, and activities to the inboxes,
 * signed with keys that name this site itself, which the blog never fetches (private addresses),
 * so no request leaves the machine.
 */
function fediverseRequest(random: Random, site: FuzzSite): FuzzRequest {
  const text = () => urlComponent(random);
  const accept: [string, string] = ["Accept", random.pick(ACTIVITY_ACCEPTS)];
  const host = new URL(site.origin).host;
  if (random.chance(0.6)) {
    const target = random.pick([
      () =>
        `/.well-known/webfinger?resource=${random.pick([`acct:blog@${host}`, `acct:${text()}@${host}`, text(), ""])}`,
      () => `/.well-known/webfinger${random.pick(["", "?", `?resource=acct:blog@${host}&rel=${text()}`])}`,
      () => random.pick(["/.well-known/nodeinfo", "/nodeinfo/2.1", `/nodeinfo/${text()}`]),
      () => `/ap/users/${random.pick(["blog", text()])}`,
      () =>
        `/ap/users/${random.pick(["blog", text()])}/${random.pick(["outbox", "followers", "following", text()])}${random.pick(["", `?cursor=${random.pick(["1", "0", "-1", "1e309", "", text()])}`])}`,
      () => `/ap/posts/${postId(random, site)}`,
      () => `/blog/${postId(random, site)}`,
      () => `/ap/${text()}`,
    ])();
    return { kind: "fediverse read", method: random.chance(0.9) ? "GET" : "HEAD", target, headers: [accept] };
  }
  const keyId = `${site.origin}/${random.pick(["ap/users/blog#main-key", text()])}`;
  const activity = random.pick([
    () => ({
      type: random.pick(["Follow", "Like", "Announce", "Undo", "Create", "Delete"]),
      actor: `${site.origin}/${text()}`,
    }),
    () => ({ "@context": "https://www.w3.org/ns/activitystreams", id: text(), type: text(), object: text() }),
    () => [1, 2, 3],
    () => hostileText(random),
  ])();
  const signature = random.pick([
    `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date",signature="${text()}"`,
    `keyId="${text()}",signature="x"`,
    hostileText(random).slice(0, 500),
  ]);
  return {
    kind: "fediverse inbox",
    method: "POST",
    target: random.pick(["/ap/inbox", "/ap/users/blog/inbox", `/ap/users/${text()}/inbox`]),
    headers: [
      ["Content-Type", random.pick(["application/activity+json", "application/ld+json", "text/plain"])],
      ...(random.chance(0.8) ? [["Signature", signature] as [string, string]] : []),
      ["Date", random.pick([new Date().toUTCString(), text()])],
    ],
    body: Buffer.from(typeof activity === "string" ? activity : JSON.stringify(activity)),
  };
}

/** Cursors no collection hands out (a NUL byte once reached PostgreSQL), and the edges of those they do. */
const HOSTILE_CURSORS = [
  "%00",
  "AAAAAAAAAAAAAAA%00",
  "%FF%FE",
  "%zz",
  "%27%20OR%201%3D1--",
  "-1",
  "0",
  "1e309",
  "9".repeat(400),
  "x".repeat(16),
  "%F0%9F%98%80",
  "",
  "1",
  "2",
];
const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

/** JSON text nested `depth` levels deep, in an activity's object or its @context. */
function nestedActivity(random: Random, site: FuzzSite): string {
  const depth = random.pick([10, 63, 64, 65, 200, 2_000, 20_000]);
  const [open, close] = random.pick([
    ["[", "]"],
    ['{"object":', "}"],
    ['{"@context":', "}"],
  ]);
  const inner = `${open.repeat(depth)}"${site.origin}/ap/users/blog"${close.repeat(depth)}`;
  // Sometimes unclosed: the depth check must not trust the brackets to balance.
  const nested = random.chance(0.2) ? open.repeat(depth) : inner;
  return random.chance(0.5)
    ? `{"@context":"${AS_CONTEXT}","type":"Create","actor":"${site.origin}/x","object":${nested}}`
    : `{"@context":${nested},"type":"Like","actor":"${site.origin}/x"}`;
}

/**
 * An activity whose reading would fetch: remote contexts, an object integrity proof and a Linked
 * Data signature naming keys elsewhere (this site and a metadata address, both private), or one
 * just under or over the size limit.
 */
function jsonLdActivity(random: Random, site: FuzzSite): string {
  const text = () => urlComponent(random);
  if (random.chance(0.25)) {
    const size = random.pick([250 * 1024, 257 * 1024, 1024 * 1024]);
    return JSON.stringify({ "@context": AS_CONTEXT, type: "Note", content: "x".repeat(size) });
  }
  const elsewhere = random.pick([site.origin, "http://169.254.169.254", `${site.origin}/${text()}`]);
  return JSON.stringify({
    "@context": random.pick([
      [AS_CONTEXT, `${elsewhere}/context.jsonld`],
      `${elsewhere}/${text()}`,
      [AS_CONTEXT, { "@vocab": `${elsewhere}/`, actor: { "@id": "as:object" } }],
      [AS_CONTEXT, "https://w3id.org/security/data-integrity/v1"],
    ]),
    id: `${site.origin}/${text()}`,
    type: random.pick(["Like", "Create", "Delete", "Update", "Announce"]),
    actor: `${elsewhere}/users/${text()}`,
    object: random.pick([`${site.origin}/ap/posts/${postId(random, site)}`, { type: "Note", content: text() }]),
    proof: random.chance(0.5)
      ? {
          type: "DataIntegrityProof",
          cryptosuite: random.pick(["eddsa-jcs-2022", text()]),
          verificationMethod: `${elsewhere}/users/x#ed25519-key`,
          proofPurpose: "assertionMethod",
          proofValue: `z${text()}`,
          created: random.pick(["2026-01-01T00:00:00Z", text()]),
        }
      : undefined,
    signature: random.chance(0.5)
      ? { type: "RsaSignature2017", creator: `${elsewhere}/users/x#main-key`, signatureValue: text() }
      : undefined,
  });
}

/**
 * The fediverse's collections with hostile cursors and post ids, and its inboxes with nested,
 * oversized and fetch-inviting JSON-LD, each from its own address so the inbox's per-address
 * budget answers only some of them.
 */
function fediverseHostileRequest(random: Random, site: FuzzSite): FuzzRequest {
  const accept: [string, string] = ["Accept", random.pick(ACTIVITY_ACCEPTS)];
  if (random.chance(0.5)) {
    const cursor = random.chance(0.8) ? random.pick(HOSTILE_CURSORS) : urlComponent(random);
    const collection = random.pick(["inbox", "followers", "outbox", "following"]);
    const target = random.pick([
      `/ap/users/blog/${collection}?cursor=${cursor}`,
      `/ap/users/blog/${collection}?cursor=1&cursor=${cursor}`,
      `/ap/inbox?cursor=${cursor}`,
      `/ap/posts/${cursor}`,
    ]);
    return { kind: "fediverse cursor", method: random.chance(0.9) ? "GET" : "HEAD", target, headers: [accept] };
  }
  const body = random.chance(0.5) ? nestedActivity(random, site) : jsonLdActivity(random, site);
  const keyId = `${site.origin}/${random.pick(["ap/users/blog#main-key", urlComponent(random)])}`;
  return {
    kind: "fediverse JSON-LD",
    method: "POST",
    target: random.pick(["/ap/inbox", "/ap/users/blog/inbox"]),
    headers: [
      ["X-Forwarded-For", address(random)],
      ["Content-Type", random.pick(["application/activity+json", "application/ld+json"])],
      ["Date", new Date().toUTCString()],
      ...(random.chance(0.7)
        ? [["Signature", `keyId="${keyId}",headers="(request-target) date",signature="eA=="`] as [string, string]]
        : []),
    ],
    body: Buffer.from(body),
  };
}

const GENERATORS: [weight: number, generator: Generator][] = [
  [8, writingAppRequest],
  [4, fediverseHostileRequest],
  [5, fediverseRequest],
  [
    6,
    (random, site) => {
      const list = random.pick(PAGINATED);
      const [pathname, search] = list.split("?");
      const page = random.chance(0.7) ? random.pick(PAGE_VALUES) : urlComponent(random);
      return {
        kind: "pagination",
        method: "GET",
        target: `${maybeData(random, pathname!)}?${search ? `${search}&` : ""}page=${page}`,
        headers: headers(random, site, { signedIn: list.startsWith("/admin") && random.chance(0.8), post: false }),
      };
    },
  ],
  [
    6,
    (random, site) => {
      const boundary = `----fuzz${random.below(1e9)}`;
      const file = importFile(random);
      const fields = importOptions(random);
      const fileName = random.chance(0.1) ? `${file.name}"; name="x` : file.name;
      const complete = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${random.chance(0.95) ? "file" : "other"}"; filename="${fileName}"\r\nContent-Type: ${random.pick(["application/json", "text/xml", "application/octet-stream"])}\r\n\r\n`,
        ),
        file.content,
        Buffer.from("\r\n"),
        multipartBody(fields, boundary, random),
      ]);
      const truncated = random.chance(0.1);
      return {
        kind: "import upload",
        method: "POST",
        target: random.pick(["/admin/tools/import", "/admin/tools/import.json", "/admin/tools/import.data"]),
        headers: [
          ...headers(random, site, { signedIn: random.chance(0.85), post: true }),
          ["Content-Type", `multipart/form-data; boundary=${boundary}`],
          ...(random.chance(0.5) ? [["Accept", "application/json"] as [string, string]] : []),
        ],
        body: truncated ? complete.subarray(0, random.below(complete.length)) : complete,
        ...(truncated ? { truncatedTo: complete.length } : {}),
      };
    },
  ],
  [
    10,
    (random, site) => ({
      kind: "public page",
      method: random.chance(0.9) ? "GET" : "HEAD",
      target: maybeData(random, random.pick([...PUBLIC_PAGES, ...RESOURCES])) + query(random),
      headers: headers(random, site, { signedIn: random.chance(0.2), post: false }),
    }),
  ],
  [
    8,
    (random, site) => ({
      kind: "post page",
      method: "GET",
      target: maybeData(random, `/blog/${postId(random, site)}`) + query(random),
      headers: headers(random, site, { signedIn: random.chance(0.2), post: false }),
    }),
  ],
  [
    5,
    (random, site) => ({
      kind: "category page",
      method: "GET",
      target:
        maybeData(random, `/category/${random.chance(0.5) ? random.pick(site.categories) : urlComponent(random)}`) +
        query(random),
      headers: headers(random, site, { signedIn: false, post: false }),
    }),
  ],
  [
    8,
    (random, site) => ({
      kind: "search",
      method: "GET",
      target: `${maybeData(random, "/search")}?q=${urlComponent(random)}${random.chance(0.3) ? `&page=${urlComponent(random)}` : ""}`,
      headers: headers(random, site, { signedIn: false, post: false }),
    }),
  ],
  [
    10,
    (random, site) => {
      const page = random.pick([
        ...ADMIN_PAGES,
        `/admin/posts/edit/${postId(random, site)}`,
        `/admin/posts/edit/${postId(random, site)}/revisions/${urlComponent(random)}`,
        `/admin/${urlComponent(random)}`,
      ]);
      return {
        kind: "admin page",
        method: random.chance(0.9) ? "GET" : "HEAD",
        target: maybeData(random, page) + query(random),
        headers: headers(random, site, { signedIn: random.chance(0.6), post: false }),
      };
    },
  ],
  [
    5,
    (random, site) => ({
      kind: "unknown path",
      method: "GET",
      target: random.pick([
        () => `/${urlComponent(random)}/${urlComponent(random)}`,
        () => `/assets/${urlComponent(random)}`,
        () => `/covers/${urlComponent(random)}`,
        () =>
          `/media/${urlComponent(random)}/${random.pick(["original", "480", urlComponent(random)])}.${random.pick(["jpeg", "webp", "avif", urlComponent(random)])}`,
        () => `/preview/${urlComponent(random)}`,
        () => `/sitemaps/${urlComponent(random)}`,
        () => `/category/${urlComponent(random)}/${random.pick(["rss.xml", "atom.xml", "feed.json"])}`,
        () => `/__manifest?p=${urlComponent(random)}&version=${urlComponent(random)}`,
        () => `/${"é".repeat(1 + random.below(20))}`,
        () => random.pick(["*", "//", "/..", "/%2e%2e/%2e%2e/etc/passwd", "http://evil.example/", "/./blog"]),
      ])(),
      headers: headers(random, site, { signedIn: false, post: false }),
    }),
  ],
  [
    22,
    (random, site) => {
      const { target, admin } = formTarget(random, site);
      const { contentType, body } = formBody(random, formFields(random, target, site));
      return {
        kind: "form post",
        method: "POST",
        target,
        headers: [
          ...headers(random, site, { signedIn: admin && random.chance(0.6), post: true }),
          ["Content-Type", contentType],
        ],
        body,
      };
    },
  ],
  [
    6,
    (random, site) => {
      const { target, admin } = formTarget(random, site);
      const { contentType, body } = formBody(random, formFields(random, target, site));
      return {
        kind: "wrong method",
        method: random.pick(WRONG_METHODS),
        target,
        headers: [
          ...headers(random, site, { signedIn: admin && random.chance(0.5), post: true }),
          ["Content-Type", contentType],
        ],
        body: random.chance(0.7) ? body : undefined,
      };
    },
  ],
  [
    8,
    (random, site) => {
      const { target, admin } = formTarget(random, site);
      const fields = formFields(random, target, site);
      const contentType = random.pick(WRONG_CONTENT_TYPES);
      const body = random.pick([
        () => Buffer.from(JSON.stringify(Object.fromEntries(fields))),
        () => urlencodedBody(fields, random),
        () => Buffer.from(Array.from({ length: random.below(2_000) }, () => random.below(256))),
      ])();
      return {
        kind: "wrong content type",
        method: "POST",
        target,
        headers: [
          ...headers(random, site, { signedIn: admin && random.chance(0.5), post: true }),
          ...(random.chance(0.15) ? [] : [["Content-Type", contentType] as [string, string]]),
        ],
        body,
      };
    },
  ],
  [
    4,
    (random, site) => {
      const { target, admin } = formTarget(random, site);
      const boundary = `----fuzz${random.below(1e9)}`;
      const complete = multipartBody(formFields(random, target, site), boundary, random);
      const body = random.pick([
        () => complete.subarray(0, random.below(complete.length)),
        () => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno closing boundary`),
        () => Buffer.from(`--${boundary}\r\nno headers at all\r\n--${boundary}--\r\n`),
        () => Buffer.from("not multipart at all"),
      ])();
      return {
        kind: "malformed multipart",
        method: "POST",
        target,
        headers: [
          ...headers(random, site, { signedIn: admin && random.chance(0.5), post: true }),
          ["Content-Type", `multipart/form-data; boundary=${boundary}`],
        ],
        body,
      };
    },
  ],
  [
    5,
    (random, site) => {
      const { target, admin } = formTarget(random, site);
      const { contentType, body } = formBody(random, formFields(random, target, site));
      return {
        kind: "truncated body",
        method: "POST",
        target,
        headers: [
          ...headers(random, site, { signedIn: admin && random.chance(0.5), post: true }),
          ["Content-Type", contentType],
        ],
        body: body.subarray(0, random.below(body.length + 1)),
        truncatedTo: body.length + 1 + random.below(2_000),
      };
    },
  ],
  [
    4,
    (random, site) => {
      const huge = random.pick([
        (): [string, string][] => [["Cookie", `blog_session=${"a".repeat(20_000)}`]],
        (): [string, string][] => [
          ["Cookie", Array.from({ length: 300 }, (_, index) => `c${index}=${index}`).join("; ")],
        ],
        (): [string, string][] => [["User-Agent", "Mozilla/5.0 ".repeat(900)]],
        (): [string, string][] => [["Referer", `${site.origin}/${"r".repeat(20_000)}`]],
        (): [string, string][] => Array.from({ length: 150 }, (_, index) => [`X-Fuzz-${index}`, "v".repeat(50)]),
        (): [string, string][] => [["Host", random.pick(["evil.example", "", "127.0.0.1:1", "[::1]:99999", "a b"])]],
        (): [string, string][] => [["X-Fuzz", "bad\u0000value"]],
        (): [string, string][] => [["Transfer-Encoding", "chunked, identity"]],
        (): [string, string][] => [["X-Forwarded-Host", random.pick(["", "evil.example", "a b", "[", "x:y:z", "%zz"])]],
        (): [string, string][] => [["X-Forwarded-Proto", random.pick(["", "gopher", "https, http", "a b"])]],
      ])();
      return {
        kind: "huge or odd headers",
        method: "GET",
        target: random.pick([...PUBLIC_PAGES, ...ADMIN_PAGES]),
        headers: [["X-Forwarded-For", address(random)], ...huge],
      };
    },
  ],
];

function generateRequests(seed: number, site: FuzzSite): FuzzRequest[] {
  const random = createRandom(seed);
  const totalWeight = GENERATORS.reduce((sum, [weight]) => sum + weight, 0);
  const requests = Array.from({ length: REQUEST_COUNT }, () => {
    let roll = random.below(totalWeight);
    const [, generator] = GENERATORS.find(([weight]) => (roll -= weight) < 0)!;
    return generator(random, site);
  });
  // The burst goes first, before the fuzzed settings forms can hold or close comments.
  const burst: FuzzRequest[] = [];
  const burstTarget = `/blog/${random.pick(site.postIds)}`;
  const burstAddress = address(random);
  for (let index = 0; index < COMMENT_BURST; index += 1) {
    burst.push({
      kind: "comment burst",
      method: "POST",
      target: burstTarget,
      headers: [
        ["X-Forwarded-For", burstAddress],
        ["Origin", site.origin],
        ["Content-Type", "application/x-www-form-urlencoded"],
      ],
      body: Buffer.from(`author=Eager&content=Comment+number+${index}`),
    });
  }
  return [...burst, ...requests];
}

/** What is wrong with an answer, or undefined when it is fine. */
/** 501: a part of Ghost's Admin API the blog chose not to speak, answered in Ghost's words; not a failure. */
const NOT_IMPLEMENTED = 501;

function problemWith(response: RawResponse): string | undefined {
  if (response.status >= 500 && response.status !== NOT_IMPLEMENTED) return `answered ${response.status}`;
  if (response.status === 429 && !response.headers["retry-after"]) return "answered 429 without Retry-After";
  return undefined;
}

async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, "X-Forwarded-For": "192.0.2.1" },
    body: new URLSearchParams(E2E_ADMIN),
  });
  expect(response.status, "the admin signs in").toBe(302);
  const session = response.headers.getSetCookie().find((header) => header.startsWith("blog_session="));
  expect(session, "sign-in sets the session cookie").toBeDefined();
  return session!.split(";")[0]!;
}

async function discoverSite(origin: string, adminCookie: string, app: AppKeys): Promise<FuzzSite> {
  const adminList = await (await fetch(`${origin}/admin/posts`, { headers: { Cookie: adminCookie } })).text();
  const postIds = [...new Set([...adminList.matchAll(/\/admin\/posts\/edit\/([\w-]+)/g)].map((match) => match[1]!))];
  const categoryPage = await (await fetch(`${origin}/categories`)).text();
  const categories = [...new Set([...categoryPage.matchAll(/\/category\/([\w-]+)/g)].map((match) => match[1]!))];
  expect(postIds.length, "the demo posts are listed for the admin").toBeGreaterThan(5);
  expect(categories.length, "the demo categories are listed").toBeGreaterThan(1);
  return { origin, adminCookie, postIds, categories, app };
}

const PINO_INFO = 30;
const PINO_ERROR = 50;

interface LogLine {
  level: number;
  reqId?: number;
  msg?: string;
  res?: { statusCode: number | null };
  err?: { type?: string; message?: string; status?: number; data?: string };
}

/** "3× message (error)" for each distinct kind of line, so a report stays short however often it happened. */
function summarize(lines: LogLine[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const error = line.err ? ` (${line.err.status ?? line.err.type}: ${line.err.data ?? line.err.message})` : "";
    const key = `${line.msg}${error}`.replace(/"[^"]*"/g, '"…"').slice(0, 240);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${count}× ${key}`);
}

/**
 * Reads the server's JSON log for two promises: only a request that failed with a 5xx (or
 * nothing at all) is logged as an error, and a missing page or refused method is logged as info.
 */
function inspectLog(output: string) {
  const lines = output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
  const statusOf = new Map(lines.filter((line) => line.res).map((line) => [line.reqId, line.res!.statusCode ?? 0]));
  return {
    errorsWithoutServerError: summarize(
      lines.filter((line) => line.level >= PINO_ERROR && (statusOf.get(line.reqId) ?? 0) < 500),
    ),
    routineAboveInfo: summarize(
      lines.filter((line) => [404, 405, NOT_IMPLEMENTED].includes(line.res?.statusCode ?? 0) && line.level > PINO_INFO),
    ),
  };
}

interface Failure {
  index: number;
  request: FuzzRequest;
  problem: string;
}

/** Sends every request, a few at a time, and tallies what came back. */
async function sendAll(port: number, requests: FuzzRequest[]) {
  const statuses = new Map<string, number>();
  const failures: Failure[] = [];
  const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const request = requests[index]!;
      let problem: string | undefined;
      try {
        const response = await sendRaw(port, request, REQUEST_TIMEOUT_MS);
        count(String(response.status));
        problem = problemWith(response);
      } catch (error) {
        count("no answer");
        problem = (error as Error).message;
      }
      if (problem) failures.push({ index, request, problem });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const histogram = [...statuses]
    .toSorted(([a], [b]) => a.localeCompare(b))
    .map(([status, times]) => `${status}×${times}`)
    .join(" ");
  return { histogram, failures };
}

/** One example of each kind of failure: the rest of a kind usually share its cause. */
function describeFailures(failures: Failure[]): string {
  const kinds = new Map<string, { count: number; example: Failure }>();
  for (const failure of failures) {
    const key = `${failure.request.kind}: ${failure.problem}`;
    const known = kinds.get(key);
    if (known) known.count += 1;
    else kinds.set(key, { count: 1, example: failure });
  }
  return [...kinds]
    .map(
      ([key, { count, example }]) =>
        `${count}× ${key}\n    e.g. #${example.index}: ${describeRequest(example.request)}`,
    )
    .join("\n");
}

/** Starts a server on `databaseUrl`, sends every request, and checks the answers, the log and the server's health. */
async function fuzz(databaseUrl: string, label: string, seed: number): Promise<void> {
  const port = await findFreePort();
  const origin = `http://127.0.0.1:${port}`;
  // Email on, so a subscription runs all the way to the outbox.
  const sink = await startSmtpSink({ parse: false });
  // Shared with the CLI that makes the app's keys: an Admin API key's secret is sealed with it.
  const blogEnv = { DATABASE_URL: databaseUrl, SESSION_SECRET: `fuzz-session-secret-${seed}-`.padEnd(40, "x") };
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: origin,
    ...blogEnv,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    SMTP_URL: sink.url,
    MAIL_FROM: "Fuzz <news@blog.example>",
    // Each request comes from its own X-Forwarded-For address, so rate limits answer only the bursts meant for them;
    // one proxy is trusted, so the entries a client forges before that address are ignored.
    TRUST_PROXY: "1",
  });
  try {
    await waitForOutput(server, /Blog ready at/);
    const site = await discoverSite(origin, await signIn(origin), createAppKeys(blogEnv, E2E_ADMIN.email));
    const requests = generateRequests(seed, site);

    const started = Date.now();
    const { histogram, failures } = await sendAll(port, requests);
    console.log(
      `fuzz on ${label}: seed ${seed}, ${requests.length} requests in ${Math.round((Date.now() - started) / 1000)} s, statuses ${histogram}`,
    );
    if (failures.length > 0) {
      const logFile = test.info().outputPath(`server-${label}.log`);
      writeFileSync(logFile, server.output());
      await test.info().attach(`server log (${label})`, { path: logFile, contentType: "text/plain" });
    }
    const summary = `${label}, seed ${seed} (replay with FUZZ_SEED=${seed}): ${failures.length} of ${requests.length} requests failed`;
    expect.soft(failures.length, `${summary}\n${describeFailures(failures)}\n`).toBe(0);

    expect((await fetch(`${origin}/healthz`)).status, "the server is healthy afterwards").toBe(200);
    const log = inspectLog(server.output());
    expect.soft(log.errorsWithoutServerError, "only a server error is logged as an error").toEqual([]);
    expect
      .soft(log.routineAboveInfo, "missing pages, refused methods and unsupported API parts are logged as information")
      .toEqual([]);
  } finally {
    server.child.kill("SIGTERM");
    await server.exit;
    await sink.close();
  }
}

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);

test.describe("hostile requests never get a server error, a hang or an unhealthy server", () => {
  // One database at a time: two runs at once on a shared 2-core machine would only slow each
  // other. About a minute each on an idle two-core machine; much more when it is shared. A hang
  // is caught per request (REQUEST_TIMEOUT_MS), so the timeout only bounds the whole run.
  test.describe.configure({ mode: "serial", timeout: 480_000 });

  test("on SQLite", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "blog-fuzz-"));
    try {
      await fuzz(`file:${directory}/blog.sqlite`, "SQLite", seed);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("on PostgreSQL", async () => {
    await withScratchPostgresDatabase("blog_fuzz", (url) => fuzz(url, "PostgreSQL", seed));
  });
});
