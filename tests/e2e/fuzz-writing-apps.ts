import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import {
  type FormFields,
  type FuzzRequest,
  hostileText,
  looseUriComponent,
  looseUtf8,
  multipartBody,
  type Random,
  urlComponent,
  urlencodedBody,
} from "./fuzz-support.ts";

/**
 * Hostile requests to the doors writing apps and headless sites use (issue 37): the Ghost Admin
 * and Content APIs, Micropub and its media endpoint, IndieAuth, XML-RPC, and Webmention. Half
 * carry the real keys an app would hold, so bodies reach past the key check into each parser.
 */

/** What `apps create` prints for a writing app: the keys the fuzz signs its requests with. */
export interface AppKeys {
  adminKey: string;
  contentKey: string;
  token: string;
}

export interface WritingAppSite {
  origin: string;
  postIds: string[];
  app: AppKeys;
}

/** Makes a key as an automated set-up does, with the CLI, on the database the server runs on. */
export function createAppKeys(env: Record<string, string>, email: string): AppKeys {
  const output = execFileSync(
    process.execPath,
    ["cli/blog.ts", "apps", "create", "--name", "Fuzzing app", "--scope", "publish", "--email", email],
    { env: { ...process.env, ...env }, encoding: "utf8" },
  );
  const line = (name: string) => {
    const found = output.match(new RegExp(`^${name}: (\\S+)$`, "m"))?.[1];
    if (!found) throw new Error(`apps create printed no ${name}:\n${output}`);
    return found;
  };
  return { adminKey: line("admin-key"), contentKey: line("content-key"), token: line("token") };
}

/** Any JSON value, often of the wrong type for where it lands. */
function anyValue(random: Random, depth = 0): unknown {
  const roll = random.below(depth > 2 ? 5 : 8);
  if (roll < 2) return hostileText(random);
  if (roll === 2) return random.pick([0, -1, 1e308, 1.5, 2 ** 53 + 1, null, true]);
  if (roll === 3) return random.pick(["2025-01-01T00:00:00.000Z", "2999-01-01T00:00:00Z", "yesterday", ""]);
  if (roll === 4) return random.pick(["draft", "published", "scheduled", "h-entry", "https://example.com/a.png"]);
  if (roll < 7) return Array.from({ length: random.below(4) }, () => anyValue(random, depth + 1));
  return Object.fromEntries(
    Array.from({ length: random.below(4) }, () => [
      random.pick(["value", "alt", "html", "type", "properties", "__proto__", "x"]),
      anyValue(random, depth + 1),
    ]),
  );
}

function json(value: unknown): Buffer {
  return looseUtf8(JSON.stringify(value));
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** A Ghost Admin API token: mostly signed right with the app's key, sometimes forged, expired or for another audience. */
function ghostToken(random: Random, adminKey: string): string {
  const [id, secret] = adminKey.split(":") as [string, string];
  const now = Math.floor(Date.now() / 1000);
  const header = {
    alg: random.chance(0.9) ? "HS256" : random.pick(["none", "HS512", "RS256", hostileText(random)]),
    kid: random.chance(0.9) ? id : urlComponent(random),
    typ: "JWT",
  };
  const payload = {
    iat: random.chance(0.9) ? now : random.pick([now - 3600, now + 3600, anyValue(random)]),
    exp: now + random.pick([300, 300, -60, 86_400]),
    aud: random.chance(0.9) ? "/admin/" : random.pick(["/v5/admin/", "/content/", hostileText(random)]),
  };
  const signed = `${base64url(header)}.${base64url(payload)}`;
  const signature = random.chance(0.85)
    ? createHmac("sha256", Buffer.from(secret, "hex")).update(signed).digest("base64url")
    : urlComponent(random);
  return `${signed}.${signature}`;
}

function postAddress(random: Random, site: WritingAppSite): string {
  return random.chance(0.6) ? `${site.origin}/blog/${random.pick(site.postIds)}` : hostileText(random);
}

function ghostAdminRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const id = random.chance(0.5) ? random.pick(site.postIds) : urlComponent(random);
  const resource = random.pick([
    "site/",
    "posts/",
    `posts/${id}/`,
    `posts/slug/${urlComponent(random)}/`,
    "tags/",
    "images/upload/",
    "users/",
    urlComponent(random),
  ]);
  const search = random.pick(["", "?source=html", "?formats=mobiledoc,lexical", `?filter=${urlComponent(random)}`]);
  const authorization = random.chance(0.8)
    ? `Ghost ${ghostToken(random, site.app.adminKey)}`
    : random.pick(["Ghost ", "Bearer x", `Ghost ${urlComponent(random)}`, hostileText(random).slice(0, 200)]);
  const post = {
    title: anyValue(random),
    html: random.chance(0.5) ? `<p>${hostileText(random)}</p>` : anyValue(random),
    status: random.pick(["draft", "published", "scheduled", hostileText(random)]),
    updated_at: anyValue(random),
    published_at: anyValue(random),
    tags: anyValue(random),
    mobiledoc: random.chance(0.3)
      ? JSON.stringify({ cards: [["markdown", { markdown: hostileText(random) }]] })
      : undefined,
    lexical: random.chance(0.2) ? hostileText(random) : undefined,
  };
  const body = random.pick([
    () => json({ posts: [post] }),
    () => json({ posts: anyValue(random) }),
    () => json(anyValue(random)),
    () => Buffer.from(Array.from({ length: random.below(2_000) }, () => random.below(256))),
  ])();
  const method = random.pick(["GET", "POST", "PUT", "DELETE", "PATCH"]);
  return {
    kind: "Ghost Admin API",
    method,
    target: `/ghost/api/admin/${resource}${search}`,
    headers: [
      ["Authorization", authorization],
      ["Content-Type", random.chance(0.9) ? "application/json" : random.pick(["text/plain", "multipart/form-data"])],
      ["Accept-Version", random.pick(["v5.0", "v6.0", hostileText(random).replace(/[^\x20-\x7e]/g, "")])],
    ],
    body: method === "GET" ? undefined : body,
  };
}

const CONTENT_FILTERS = [
  "tag:getting-started",
  "tag:[a,b,c]",
  "author:ada+tag:x",
  "featured:true",
  "published_at:>'2020-01-01'",
  "published_at:<=now-1d",
  "tag:-x",
  "id:[",
  "(tag:a,tag:b)+featured:false",
];

function ghostContentRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const resource = random.pick([
    "posts/",
    "pages/",
    "tags/",
    "authors/",
    "settings/",
    `posts/${random.chance(0.5) ? random.pick(site.postIds) : urlComponent(random)}/`,
    `posts/slug/${urlComponent(random)}/`,
    `tags/slug/${urlComponent(random)}/`,
    urlComponent(random),
  ]);
  const pairs: [string, string][] = [["key", random.chance(0.8) ? site.app.contentKey : urlComponent(random)]];
  const value = (choices: string[]) => (random.chance(0.7) ? random.pick(choices) : urlComponent(random));
  if (random.chance(0.5)) pairs.push(["limit", value(["1", "15", "all", "0", "-1", "1e309", "100000"])]);
  if (random.chance(0.4)) pairs.push(["page", value(["1", "2", "999999", "0", "x"])]);
  if (random.chance(0.5)) pairs.push(["filter", value(CONTENT_FILTERS)]);
  if (random.chance(0.4)) pairs.push(["include", value(["tags,authors", "count.posts", "tags", "nope"])]);
  if (random.chance(0.3)) pairs.push(["fields", value(["title,slug", "id", "html,plaintext", ""])]);
  if (random.chance(0.3)) pairs.push(["order", value(["published_at desc", "title asc", "x y z", "published_at"])]);
  if (random.chance(0.2)) pairs.push(["formats", value(["html,plaintext", "mobiledoc"])]);
  return {
    kind: "Ghost Content API",
    method: random.chance(0.9) ? "GET" : random.pick(["POST", "HEAD", "DELETE"]),
    target: `/ghost/api/content/${resource}?${pairs.map(([name, text]) => `${name}=${text}`).join("&")}`,
    headers: [["Accept", random.pick(["application/json", "*/*", "text/html"])]],
  };
}

function bearer(random: Random, site: WritingAppSite): [string, string][] {
  const roll = random.below(10);
  if (roll < 6) return [["Authorization", `Bearer ${site.app.token}`]];
  if (roll < 8) return [["Authorization", random.pick(["Bearer ", "Bearer ia_x", `Bearer ${urlComponent(random)}`])]];
  return [];
}

/** Names every JavaScript object answers to: a lookup keyed by a caller's name must not find them. */
const INHERITED_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

function micropubRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const text = () => hostileText(random);
  const form = (): FormFields =>
    random.pick([
      (): FormFields => [
        ["h", random.pick(["entry", "card", text()])],
        ["content", text()],
        ["name", text()],
        ["category[]", text()],
        ["category[]", random.pick(["Design", "Business", text()])],
        ["photo", random.pick(["https://example.com/a.png", text()])],
        ["post-status", random.pick(["draft", "published", text()])],
        ["published", random.pick(["2999-01-01T00:00:00Z", "2020-01-01", text()])],
        ["mp-slug", text()],
        [random.pick(INHERITED_NAMES), text()],
      ],
      (): FormFields => [
        ["action", random.pick(["delete", "undelete", "update", text()])],
        ["url", postAddress(random, site)],
      ],
      (): FormFields => [
        ["access_token", random.chance(0.5) ? site.app.token : text()],
        ["h", "entry"],
        ["content", text()],
      ],
    ])();
  const body = random.pick([
    () => ({
      type: random.chance(0.8) ? ["h-entry"] : anyValue(random),
      properties: random.chance(0.8)
        ? {
            content: [anyValue(random)],
            name: [text()],
            category: anyValue(random),
            photo: anyValue(random),
            [random.pick(INHERITED_NAMES)]: [text()],
          }
        : anyValue(random),
    }),
    () => ({
      action: random.pick(["update", "delete", "undelete", text()]),
      url: postAddress(random, site),
      replace: random.chance(0.3) ? { [random.pick(INHERITED_NAMES)]: [text()] } : anyValue(random),
      add: anyValue(random),
      delete: anyValue(random),
    }),
    () => anyValue(random),
  ])();

  const kind = random.below(10);
  if (kind < 2) {
    const search = [
      `q=${random.pick(["config", "source", "syndicate-to", "category", urlComponent(random)])}`,
      ...(random.chance(0.6) ? [`url=${looseUriComponent(postAddress(random, site))}`] : []),
      ...(random.chance(0.3)
        ? [`properties[]=${random.pick(["content", "name", random.pick(INHERITED_NAMES), urlComponent(random)])}`]
        : []),
    ];
    return {
      kind: "Micropub query",
      method: "GET",
      target: `/micropub?${search.join("&")}`,
      headers: bearer(random, site),
    };
  }
  const boundary = `----fuzz${random.below(1e9)}`;
  if (kind < 4) {
    const file = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${random.pick(["file", "photo", "photo[]", "x"])}"; filename="${random.pick(["a.png", "a.jpg", "a.svg", "a.txt"])}"\r\nContent-Type: ${random.pick(["image/png", "image/jpeg", "image/svg+xml", "text/plain"])}\r\n\r\n`,
      ),
      Buffer.from(Array.from({ length: random.below(3_000) }, () => random.below(256))),
      Buffer.from("\r\n"),
      multipartBody(form(), boundary, random),
    ]);
    return {
      kind: "Micropub upload",
      method: "POST",
      target: random.pick(["/micropub/media", "/micropub"]),
      headers: [...bearer(random, site), ["Content-Type", `multipart/form-data; boundary=${boundary}`]],
      body: random.chance(0.15) ? file.subarray(0, random.below(file.length)) : file,
    };
  }
  const asJson = kind < 7;
  return {
    kind: "Micropub write",
    method: random.chance(0.95) ? "POST" : random.pick(["PUT", "DELETE"]),
    target: "/micropub",
    headers: [
      ...bearer(random, site),
      ["Content-Type", asJson ? "application/json" : "application/x-www-form-urlencoded"],
    ],
    body: asJson ? json(body) : urlencodedBody(form(), random),
  };
}

const XMLRPC_METHODS = [
  "metaWeblog.newPost",
  "metaWeblog.editPost",
  "metaWeblog.getPost",
  "metaWeblog.getRecentPosts",
  "metaWeblog.newMediaObject",
  "metaWeblog.getCategories",
  "blogger.getUsersBlogs",
  "blogger.deletePost",
  "wp.getUsersBlogs",
  "system.listMethods",
];

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An XML-RPC value of any type, often not the one the method expects. */
function xmlValue(random: Random, depth = 0): string {
  const roll = random.below(depth > 1 ? 6 : 8);
  if (roll < 2) return `<value><string>${escapeXml(hostileText(random))}</string></value>`;
  if (roll === 2) return `<value>${escapeXml(hostileText(random))}</value>`;
  if (roll === 3) return `<value><int>${random.pick(["1", "-1", "99999999999999999999", "x"])}</int></value>`;
  if (roll === 4) return `<value><boolean>${random.pick(["1", "0", "true", "2"])}</boolean></value>`;
  if (roll === 5)
    return `<value><dateTime.iso8601>${random.pick(["20990101T00:00:00", "2020-01-01T00:00:00Z", "never"])}</dateTime.iso8601></value>`;
  if (roll === 6) {
    const members = Array.from(
      { length: random.below(6) },
      () =>
        `<member><name>${random.pick(["title", "description", "categories", "mt_keywords", "post_status", "dateCreated", "name", "bits", "type", escapeXml(hostileText(random))])}</name>${xmlValue(random, depth + 1)}</member>`,
    );
    return `<value><struct>${members.join("")}</struct></value>`;
  }
  return `<value><array><data>${Array.from({ length: random.below(4) }, () => xmlValue(random, depth + 1)).join("")}</data></array></value>`;
}

function xmlRpcRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const password = random.chance(0.7) ? site.app.token : hostileText(random);
  const call = () => {
    const params = [
      `<value><string>${random.chance(0.5) ? escapeXml(random.pick(site.postIds)) : "1"}</string></value>`,
      "<value><string>writer</string></value>",
      `<value><string>${escapeXml(password)}</string></value>`,
      ...Array.from({ length: random.below(3) }, () => xmlValue(random)),
      ...(random.chance(0.5) ? [`<value><boolean>${random.pick(["1", "0"])}</boolean></value>`] : []),
    ];
    return `<?xml version="1.0"?><methodCall><methodName>${random.chance(0.9) ? random.pick(XMLRPC_METHODS) : random.chance(0.5) ? random.pick(INHERITED_NAMES) : escapeXml(hostileText(random))}</methodName><params>${params.map((param) => `<param>${param}</param>`).join("")}</params></methodCall>`;
  };
  const body = random.pick([
    call,
    call,
    call,
    () => call().slice(0, random.below(call().length)),
    () =>
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><methodCall><methodName>&lol2;</methodName></methodCall>`,
    () =>
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><methodCall><methodName>&xxe;</methodName></methodCall>`,
    () => hostileText(random),
  ])();
  return {
    kind: "XML-RPC",
    method: random.chance(0.95) ? "POST" : random.pick(["GET", "PUT"]),
    target: random.pick(["/xmlrpc.php", "/xmlrpc.php", "/rsd.xml"]),
    headers: [["Content-Type", random.pick(["text/xml", "application/xml", "text/plain"])]],
    body: looseUtf8(body),
  };
}

function indieAuthRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const text = () => urlComponent(random);
  const value = (right: string) => (random.chance(0.7) ? encodeURIComponent(right) : text());
  const client = "https://app.example/";
  if (random.chance(0.5)) {
    const search = [
      `response_type=${value("code")}`,
      `client_id=${value(client)}`,
      `redirect_uri=${value(`${client}callback`)}`,
      `state=${text()}`,
      `code_challenge=${value("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")}`,
      `code_challenge_method=${value(random.pick(["S256", "plain"]))}`,
      `scope=${value(random.pick(["create", "create update delete media", "draft", "profile"]))}`,
      `me=${value(site.origin)}`,
    ].filter(() => random.chance(0.85));
    return {
      kind: "IndieAuth authorization",
      method: random.chance(0.8) ? "GET" : "POST",
      target: random.pick([
        `/indieauth/auth?${search.join("&")}`,
        `/admin/indieauth?${search.join("&")}`,
        "/.well-known/oauth-authorization-server",
      ]),
      headers: [],
    };
  }
  const fields: FormFields = [
    ["grant_type", random.pick(["authorization_code", "refresh_token", hostileText(random)])],
    ["code", hostileText(random)],
    ["client_id", random.pick([client, hostileText(random)])],
    ["redirect_uri", random.pick([`${client}callback`, hostileText(random)])],
    ["code_verifier", hostileText(random)],
    ["token", random.pick([site.app.token, `ia_${text()}`, hostileText(random)])],
    ["action", random.pick(["revoke", hostileText(random)])],
  ];
  return {
    kind: "IndieAuth token",
    method: "POST",
    target: random.pick(["/indieauth/token", "/indieauth/revoke", "/indieauth/auth"]),
    headers: [["Content-Type", random.pick(["application/x-www-form-urlencoded", "application/json"])]],
    body: urlencodedBody(
      fields.filter(() => random.chance(0.8)),
      random,
    ),
  };
}

/** Webmentions whose source is never fetched: loopback, private and nonsense addresses, refused by the guard. */
function webmentionRequest(random: Random, site: WritingAppSite): FuzzRequest {
  const fields: FormFields = [
    [
      "source",
      random.pick([
        "http://127.0.0.1/a",
        "http://10.0.0.1/",
        "http://[::1]/",
        "file:///etc/passwd",
        hostileText(random),
      ]),
    ],
    ["target", postAddress(random, site)],
  ];
  return {
    kind: "Webmention",
    method: "POST",
    target: "/webmention",
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    body: urlencodedBody(
      fields.filter(() => random.chance(0.9)),
      random,
    ),
  };
}

/** One request to a writing app's door, each door about as often as the others. */
export function writingAppRequest(random: Random, site: WritingAppSite): FuzzRequest {
  return random.pick([
    ghostAdminRequest,
    ghostContentRequest,
    micropubRequest,
    micropubRequest,
    xmlRpcRequest,
    indieAuthRequest,
    webmentionRequest,
  ])(random, site);
}
