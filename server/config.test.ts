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

  it("treats empty variables as unset and trims a trailing slash from URLs", () => {
    const config = parseConfig({ PORT: "", SITE_URL: "https://blog.example.com/", BLOG_DEMO: "0" });
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe("https://blog.example.com");
    expect(config.loadDemoContent).toBe(false);
  });
});
