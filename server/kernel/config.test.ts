import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";

describe("configuration", () => {
  it("has defaults that start a blog on a fresh clone", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      database: { dialect: "sqlite" },
      siteUrl: "http://localhost:3000",
      loadDemoContent: true,
      initialAdmin: undefined,
    });
    expect(config.database.dialect === "sqlite" && config.database.filename).toMatch(/data\/blog\.sqlite$/);
  });

  it("chooses PostgreSQL from a postgres:// DATABASE_URL", () => {
    const config = parseConfig({ DATABASE_URL: "postgres://blog@db.internal:5432/blog" });
    expect(config.database).toEqual({ dialect: "postgres", connectionString: "postgres://blog@db.internal:5432/blog" });
  });

  it.each([
    [{ PORT: "eighty" }, /^Invalid configuration: PORT must be a port number between 0 and 65535$/],
    [{ PORT: "70000" }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL must be file:/],
    [{ SITE_URL: "not a url" }, /^Invalid configuration: SITE_URL /],
    [{ BLOG_DEMO: "maybe" }, /^Invalid configuration: BLOG_DEMO /],
    [{ ADMIN_EMAIL: "a@b.example" }, /^Invalid configuration: ADMIN_PASSWORD must be set together with ADMIN_EMAIL$/],
    [{ ADMIN_EMAIL: "nope", ADMIN_PASSWORD: "long enough pw" }, /^Invalid configuration: ADMIN_EMAIL /],
    [{ SESSION_SECRET: "short" }, /^Invalid configuration: SESSION_SECRET /],
  ])("names the variable in one line when %o is invalid", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it.each([
    [{}, 0],
    [{ TRUST_PROXY: "0" }, 0],
    [{ TRUST_PROXY: "false" }, 0],
    [{ TRUST_PROXY: "1" }, 1],
    [{ TRUST_PROXY: "true" }, 1],
    [{ TRUST_PROXY: "2" }, 2],
    [{ TRUST_PROXY: "10.0.0.1" }, ["10.0.0.1"]],
    [
      { TRUST_PROXY: " 10.0.0.0/8, fd00::/8,loopback , 192.0.2.7 " },
      ["10.0.0.0/8", "fd00::/8", "loopback", "192.0.2.7"],
    ],
  ])("trusts the proxies %o names: %o", (env, trusted) => {
    expect(parseConfig(env).trustProxy).toEqual(trusted);
  });

  it.each([
    "yes",
    "-1",
    "1.5",
    "10.0.0.300",
    "10.0.0.0/33",
    "fd00::/129",
    "10.0.0.1,",
    "proxy.internal",
    "10.0.0.1 10.0.0.2",
  ])("refuses TRUST_PROXY=%s in one line naming it", (value) => {
    expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(
      /^Invalid configuration: TRUST_PROXY must be a number of proxies \(0 for none\) or a comma-separated list of their addresses or CIDR ranges$/,
    );
  });

  it("leaves email off without SMTP_URL, and reads the server, sender and rate with it", () => {
    expect(parseConfig({}).mail).toBeUndefined();
    expect(parseConfig({ MAIL_FROM: "news@example.com" }).mail).toBeUndefined();
    expect(
      parseConfig({
        SMTP_URL: "smtps://user:secret@smtp.example.com:465",
        MAIL_FROM: " Heron Blog <news@example.com> ",
      }).mail,
    ).toEqual({
      smtpUrl: "smtps://user:secret@smtp.example.com:465",
      fromAddress: "news@example.com",
      rate: 10,
    });
    expect(
      parseConfig({ SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "news@example.com", SMTP_RATE: "250" }).mail,
    ).toMatchObject({ fromAddress: "news@example.com", rate: 250 });
  });

  it.each([
    [
      { SMTP_URL: "mailgun://key@example.com", MAIL_FROM: "a@b.example" },
      /^Invalid configuration: SMTP_URL must be smtp:/,
    ],
    [{ SMTP_URL: "smtp://", MAIL_FROM: "a@b.example" }, /^Invalid configuration: SMTP_URL /],
    [{ SMTP_URL: "smtp://smtp.example.com" }, /^Invalid configuration: MAIL_FROM must be set together with SMTP_URL$/],
    [{ MAIL_FROM: "Blog <not an address>" }, /^Invalid configuration: MAIL_FROM must be an address/],
    [{ MAIL_FROM: "Blog news@example.com" }, /^Invalid configuration: MAIL_FROM /],
    [{ SMTP_RATE: "fast" }, /^Invalid configuration: SMTP_RATE must be a whole number of messages per second/],
    [{ SMTP_RATE: "0" }, /^Invalid configuration: SMTP_RATE /],
    [{ SMTP_RATE: "2.5" }, /^Invalid configuration: SMTP_RATE /],
  ])("refuses email settings %o in one line naming the variable", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("treats empty variables as unset and trims a trailing slash from URLs", () => {
    const config = parseConfig({ PORT: "", SITE_URL: "https://blog.example.com/", BLOG_DEMO: "0" });
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe("https://blog.example.com");
    expect(config.loadDemoContent).toBe(false);
  });
});

describe("FEDIVERSE_ALLOW_PRIVATE_ADDRESS", () => {
  it("is off unless set, and on for a test server whose SITE_URL is on this machine", () => {
    expect(parseConfig({}).fediverseAllowPrivateAddress).toBe(false);
    for (const SITE_URL of ["http://127.0.0.1:4100", "http://localhost:3000", "http://[::1]:8080"]) {
      const config = parseConfig({ NODE_ENV: "production", SITE_URL, FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "true" });
      expect(config.fediverseAllowPrivateAddress).toBe(true);
    }
  });

  it("is refused, in one line, for a blog whose address is out in the world", () => {
    expect(() =>
      parseConfig({
        NODE_ENV: "production",
        SITE_URL: "https://blog.example.com",
        FEDIVERSE_ALLOW_PRIVATE_ADDRESS: "1",
      }),
    ).toThrow(
      /^Invalid configuration: FEDIVERSE_ALLOW_PRIVATE_ADDRESS is for test servers only: it needs SITE_URL on this machine \(localhost, 127\.0\.0\.1 or \[::1\]\)$/,
    );
  });
});
