import { beforeEach, describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../server/accounts/auth.ts";
import { createServices } from "../../server/composition.ts";
import { testDialects } from "../support/databases.ts";
import { recordStatements } from "../support/statements.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const HOUR = 60 * 60 * 1000;

describe.each(testDialects())("admin accounts and sessions on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  beforeEach(async () => {
    await blog.services.auth.createAdmin("Writer@Example.com", "a long enough password");
  });

  it("signs in with the email in any case and describes the user as the spec does", async () => {
    const { token, user } = await blog.services.auth.signIn("writer@EXAMPLE.com", "a long enough password");
    expect(user).toMatchObject({ email: "writer@example.com", username: "writer", isAdmin: true });
    expect(await blog.services.auth.getSessionUser(token)).toEqual(user);
  });

  it("keeps the writer's view of the body on the account, read with the session in its one statement", async () => {
    const { token, user } = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    expect(user.writingView).toBe("markdown");
    await blog.services.users.chooseWritingView(user, "visual");
    const recorded = recordStatements(blog.handle.db);
    const again = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    expect(await again.auth.getSessionUser(token)).toMatchObject({ writingView: "visual" });
    expect(recorded.statements).toHaveLength(1);
    const elsewhere = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    expect(elsewhere.user.writingView).toBe("visual");
  });

  it("stores only a hash of the password and of the session token", async () => {
    const { token } = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    const admin = await blog.handle.db.selectFrom("admins").selectAll().executeTakeFirstOrThrow();
    expect(admin.password_hash).toMatch(/^scrypt\$/);
    expect(admin.password_hash).not.toContain("a long enough password");
    const session = await blog.handle.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    expect(session.id_hash).not.toBe(token);
  });

  it("gives the same error for a wrong password and an unknown email", async () => {
    for (const [email, password] of [
      ["writer@example.com", "wrong password!"],
      ["nobody@example.com", "a long enough password"],
    ]) {
      await expect(blog.services.auth.signIn(email!, password!)).rejects.toSatisfy((error) =>
        isDomainError(error, "INVALID_CREDENTIALS"),
      );
    }
  });

  it("refuses a second account with the same email in another case", async () => {
    expect(await blog.services.auth.ensureAdmin("WRITER@example.com", "another password")).toBe(false);
    expect(await blog.services.auth.hasAnyAdmin()).toBe(true);
  });

  it("ends sessions after the idle limit and after the absolute limit", async () => {
    const idle = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    blog.clock.advance(SESSION_IDLE_MS + HOUR);
    expect(await blog.services.auth.getSessionUser(idle.token)).toBeUndefined();

    const busy = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS; elapsed += SESSION_IDLE_MS / 2) {
      expect(await blog.services.auth.getSessionUser(busy.token)).toBeDefined();
      blog.clock.advance(SESSION_IDLE_MS / 2);
    }
    blog.clock.advance(HOUR);
    expect(await blog.services.auth.getSessionUser(busy.token)).toBeUndefined();
  });

  it("signs out one session, and a password reset signs out all of them", async () => {
    const first = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    const second = await blog.services.auth.signIn("writer@example.com", "a long enough password");
    expect(first.token).not.toBe(second.token);
    await blog.services.auth.signOut(first.token);
    expect(await blog.services.auth.getSessionUser(first.token)).toBeUndefined();
    expect(await blog.services.auth.getSessionUser(second.token)).toBeDefined();

    expect(await blog.services.auth.resetPassword("writer@example.com", "a brand new password")).toBe(true);
    expect(await blog.services.auth.getSessionUser(second.token)).toBeUndefined();
    await expect(blog.services.auth.signIn("writer@example.com", "a long enough password")).rejects.toSatisfy((error) =>
      isDomainError(error, "INVALID_CREDENTIALS"),
    );
    await expect(blog.services.auth.signIn("writer@example.com", "a brand new password")).resolves.toBeDefined();
  });

  it("ignores unknown and empty session tokens", async () => {
    expect(await blog.services.auth.getSessionUser(undefined)).toBeUndefined();
    expect(await blog.services.auth.getSessionUser("forged-token")).toBeUndefined();
  });
});
