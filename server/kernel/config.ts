import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "#domain/account.ts";

const booleanFlag = z.enum(["0", "1", "true", "false"]).transform((value) => value === "1" || value === "true");

const httpUrl = z
  .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
  .transform((value) => value.replace(/\/+$/, ""));

const databaseUrl = z
  .string()
  .trim()
  .refine((value) => /^file:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value), {
    message: "must be file:<path> or postgres://user@host:port/database",
  });

/** Express's names for the loopback, link-local and private ranges, which a proxy list may use. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const TRUST_PROXY_MESSAGE =
  "must be a number of proxies (0 for none) or a comma-separated list of their addresses or CIDR ranges";

/**
 * Which proxies may say who the client is (X-Forwarded-For) and how it connected: a number of
 * hops counted from this server, or the proxies' own addresses. Never every hop: the leftmost
 * X-Forwarded-For entries are whatever the client wrote (docs/decisions/0012-proxy-trust.md).
 * `true` and `false`, once accepted as a switch, mean one proxy and none.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): number | string[] => {
    if (value === "false") return 0;
    if (value === "true") return 1;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries;
    context.addIssue({ code: "custom", message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  });

const smtpUrl = z
  .string()
  .trim()
  .refine((value) => /^smtps?:\/\/[^/?#\s]+/.test(value) && URL.canParse(value), {
    message: "must be smtp://user:pass@host:port or smtps://user:pass@host:port",
  });

/**
 * `Name <address>` or a bare address: the address every email is sent from. The name shown
 * beside it is Settings' (or the site's title), so a name here is accepted and not used.
 */
const mailFrom = z
  .string()
  .trim()
  .transform((value, context) => {
    const match = /^(?:(?<name>[^<>]*?)\s*<(?<named>[^<>\s]+)>|(?<bare>[^<>\s]+))$/.exec(value);
    const address = match?.groups?.named ?? match?.groups?.bare ?? "";
    if (z.email().safeParse(address).success) return address;
    context.addIssue({
      code: "custom",
      message: "must be an address, or a name and an address: Blog <news@example.com>",
    });
    return z.NEVER;
  });

const SMTP_RATE_MESSAGE = "must be a whole number of messages per second, 1 or more";

const PORT_MESSAGE = "must be a port number between 0 and 65535";

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce
      .number({ error: PORT_MESSAGE })
      .int(PORT_MESSAGE)
      .min(0, PORT_MESSAGE)
      .max(65535, PORT_MESSAGE)
      .default(3000),
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    DATABASE_URL: databaseUrl.default("file:./data/blog.sqlite"),
    SITE_URL: httpUrl.optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    COMMENT_IP_SALT: z.string().min(32, "must be at least 32 characters").optional(),
    ABOUT_URL: httpUrl.default("https://example.com/about"),
    SOURCE_URL: httpUrl.default("https://example.com/source"),
    BLOG_DEMO: booleanFlag.default(true),
    ADMIN_EMAIL: z.email("must be an email address").optional(),
    ADMIN_PASSWORD: z
      .string()
      .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
      .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
      .optional(),
    TRUST_PROXY: trustProxy.default(0),
    PAGE_CACHE_BYTES: z.coerce
      .number({ error: "must be a number of bytes" })
      .int("must be a whole number of bytes")
      .min(0, "must be 0 (off) or more")
      .default(64 * 1024 * 1024),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    LOG_FORMAT: z.enum(["json", "auto"]).default("auto"),
    SMTP_URL: smtpUrl.optional(),
    MAIL_FROM: mailFrom.optional(),
    SMTP_RATE: z.coerce
      .number({ error: SMTP_RATE_MESSAGE })
      .int(SMTP_RATE_MESSAGE)
      .min(1, SMTP_RATE_MESSAGE)
      .max(10_000, "must be at most 10000 messages per second")
      .default(10),
    GEOIP_DB: z
      .string()
      .refine((file) => existsSync(file), "names no file: give the path of a GeoLite2 or DB-IP country .mmdb")
      .optional(),
    FEDIVERSE_ALLOW_PRIVATE_ADDRESS: booleanFlag.default(false),
  })
  .refine((env) => Boolean(env.ADMIN_EMAIL) === Boolean(env.ADMIN_PASSWORD), {
    message: "must be set together with ADMIN_EMAIL",
    path: ["ADMIN_PASSWORD"],
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    message: "must be set together with SMTP_URL",
    path: ["MAIL_FROM"],
  })
  // Fedify refuses to fetch private and loopback addresses; only a test server, itself on
  // loopback, talks to peers there (docs/decisions/0015-fediverse.md).
  .refine((env) => !env.FEDIVERSE_ALLOW_PRIVATE_ADDRESS || isLoopbackSite(env.SITE_URL ?? "http://localhost"), {
    message: "is for test servers only: it needs SITE_URL on this machine (localhost, 127.0.0.1 or [::1])",
    path: ["FEDIVERSE_ALLOW_PRIVATE_ADDRESS"],
  });

function isLoopbackSite(siteUrl: string): boolean {
  const host = new URL(siteUrl).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type DatabaseTarget =
  { dialect: "sqlite"; filename: string } | { dialect: "postgres"; connectionString: string };

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  database: DatabaseTarget;
  dataDir: string;
  siteUrl: string;
  sessionSecret: string | undefined;
  commentIpSalt: string | undefined;
  aboutUrl: string;
  sourceUrl: string;
  loadDemoContent: boolean;
  initialAdmin: { email: string; password: string } | undefined;
  /** Proxies trusted for the client's address: how many hops (0: none, the client connects directly) or which addresses. */
  trustProxy: number | string[];
  logLevel: string;
  /** "json": JSON lines always; "auto": readable lines when a person watches a terminal, JSON otherwise. */
  logFormat: "json" | "auto";
  /** Memory for anonymous readers' pages; 0 turns the page cache off. */
  pageCacheBytes: number;
  /** Outgoing email from the environment; undefined when SMTP_URL is unset, and then Settings → Email may set it up. */
  mail: MailConfig | undefined;
  /** SMTP_RATE: messages per second this server hands to whichever mail server is set up. */
  smtpRate: number;
  /** A GeoLite2 or DB-IP country file: analytics record the country of a view; unset, none is recorded. */
  geoipDb: string | undefined;
  /** Tests only: Fedify may fetch private and loopback addresses (a peer server on 127.0.0.1). */
  fediverseAllowPrivateAddress: boolean;
}

export interface MailConfig {
  /** smtp:// or smtps://, with the credentials: never logged. */
  smtpUrl: string;
  /** MAIL_FROM's address: the From of every email and the mailto: of List-Unsubscribe. */
  fromAddress: string;
  /** Messages per second this server hands to SMTP. */
  rate: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

function parseDatabaseTarget(url: string): DatabaseTarget {
  if (url.startsWith("file:")) {
    return { dialect: "sqlite", filename: path.resolve(url.slice("file:".length)) };
  }
  return { dialect: "postgres", connectionString: url };
}

/** Parses the environment once at boot; throws a ConfigError naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(blankAsUnset);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path.join(".") || "environment";
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? "is invalid"}`);
  }
  const parsed = result.data;
  const database = parseDatabaseTarget(parsed.DATABASE_URL);
  return {
    env: parsed.NODE_ENV,
    port: parsed.PORT,
    host: parsed.HOST,
    database,
    dataDir: database.dialect === "sqlite" ? path.dirname(database.filename) : path.resolve("data"),
    siteUrl: parsed.SITE_URL ?? `http://localhost:${parsed.PORT}`,
    sessionSecret: parsed.SESSION_SECRET,
    commentIpSalt: parsed.COMMENT_IP_SALT,
    aboutUrl: parsed.ABOUT_URL,
    sourceUrl: parsed.SOURCE_URL,
    loadDemoContent: parsed.BLOG_DEMO,
    initialAdmin:
      parsed.ADMIN_EMAIL && parsed.ADMIN_PASSWORD
        ? { email: parsed.ADMIN_EMAIL, password: parsed.ADMIN_PASSWORD }
        : undefined,
    trustProxy: parsed.TRUST_PROXY,
    logLevel: parsed.LOG_LEVEL,
    logFormat: parsed.LOG_FORMAT,
    pageCacheBytes: parsed.PAGE_CACHE_BYTES,
    mail:
      parsed.SMTP_URL && parsed.MAIL_FROM
        ? {
            smtpUrl: parsed.SMTP_URL,
            fromAddress: parsed.MAIL_FROM,
            rate: parsed.SMTP_RATE,
          }
        : undefined,
    smtpRate: parsed.SMTP_RATE,
    geoipDb: parsed.GEOIP_DB,
    fediverseAllowPrivateAddress: parsed.FEDIVERSE_ALLOW_PRIVATE_ADDRESS,
  };
}

/**
 * The cookie-signing secret: SESSION_SECRET when set, otherwise one generated on first
 * start and kept in the data directory so sessions survive restarts. Several app
 * servers must share one, so they set SESSION_SECRET.
 */
export function resolveSessionSecret(config: Config): string {
  return config.sessionSecret ?? readOrCreateSecret(config.dataDir, "session-secret");
}

/**
 * The salt of comment address hashes: COMMENT_IP_SALT when set, otherwise generated into the
 * data directory. Secret, so a leaked database cannot be matched against guessed addresses;
 * several app servers must share one, or the flood and duplicate rules see different hashes.
 */
export function resolveCommentIpSalt(config: Config): string {
  return config.commentIpSalt ?? readOrCreateSecret(config.dataDir, "comment-ip-salt");
}

function readOrCreateSecret(dataDir: string, fileName: string): string {
  const secretFile = path.join(dataDir, fileName);
  if (existsSync(secretFile)) return readFileSync(secretFile, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(secretFile, secret, { mode: 0o600 });
  return secret;
}
