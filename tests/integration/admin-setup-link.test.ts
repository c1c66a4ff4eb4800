import { describe, expect, it } from "vitest";
import { SETUP_TOKEN_TTL_MS } from "../../server/accounts/setup.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("the first-admin setup link on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("creates the first admin once, who can then sign in, and closes every link", async () => {
    const token = (await blog.services.setup.issueSetupToken())!;
    const otherServersToken = (await blog.services.setup.issueSetupToken())!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await blog.services.setup.checkSetupLink(token)).toBe("open");

    expect(await blog.services.setup.createFirstAdmin(token, "Owner@Example.com", "a long enough password")).toEqual({
      created: true,
      email: "owner@example.com",
    });
    const { user } = await blog.services.auth.signIn("owner@example.com", "a long enough password");
    expect(user.email).toBe("owner@example.com");

    expect(await blog.services.setup.checkSetupLink(token)).toBe("closed");
    expect(await blog.services.setup.checkSetupLink(otherServersToken)).toBe("closed");
    expect(
      await blog.services.setup.createFirstAdmin(otherServersToken, "second@example.com", "another password"),
    ).toEqual({
      created: false,
      state: "closed",
    });
    expect(await blog.handle.db.selectFrom("admins").select("email").execute()).toEqual([
      { email: "owner@example.com" },
    ]);
    expect(await blog.services.setup.issueSetupToken()).toBeUndefined();
  });

  it("stores only a hash of the token", async () => {
    const token = (await blog.services.setup.issueSetupToken())!;
    const rows = await blog.handle.db.selectFrom("setup_tokens").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
  });

  it("refuses unknown, empty and expired tokens without creating anyone", async () => {
    const token = (await blog.services.setup.issueSetupToken())!;
    expect(await blog.services.setup.checkSetupLink("")).toBe("invalid");
    expect(await blog.services.setup.checkSetupLink(`${token}x`)).toBe("invalid");
    expect(await blog.services.setup.createFirstAdmin("forged", "owner@example.com", "a long enough password")).toEqual(
      {
        created: false,
        state: "invalid",
      },
    );

    blog.clock.advance(SETUP_TOKEN_TTL_MS + 1000);
    expect(await blog.services.setup.checkSetupLink(token)).toBe("invalid");
    expect(await blog.services.setup.createFirstAdmin(token, "owner@example.com", "a long enough password")).toEqual({
      created: false,
      state: "invalid",
    });
    expect(await blog.services.auth.hasAnyAdmin()).toBe(false);
  });

  it("stops working once an admin exists by any other route (ADMIN_EMAIL or the CLI)", async () => {
    const token = (await blog.services.setup.issueSetupToken())!;
    await blog.services.auth.ensureAdmin("cli@example.com", "a long enough password");
    expect(await blog.services.setup.checkSetupLink(token)).toBe("closed");
    expect(await blog.services.setup.createFirstAdmin(token, "late@example.com", "a long enough password")).toEqual({
      created: false,
      state: "closed",
    });
  });

  it("lets only one of two simultaneous submissions create an admin", async () => {
    const [first, second] = [
      (await blog.services.setup.issueSetupToken())!,
      (await blog.services.setup.issueSetupToken())!,
    ];
    const results = await Promise.allSettled([
      blog.services.setup.createFirstAdmin(first, "one@example.com", "a long enough password"),
      blog.services.setup.createFirstAdmin(second, "two@example.com", "a long enough password"),
    ]);
    const created = results.filter((result) => result.status === "fulfilled" && result.value.created);
    expect(created).toHaveLength(1);
    expect(await blog.handle.db.selectFrom("admins").select("email").execute()).toHaveLength(1);
  });
});
