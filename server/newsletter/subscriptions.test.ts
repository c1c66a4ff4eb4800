import { describe, expect, it } from "vitest";
import { DomainError } from "#domain/errors.ts";
import {
  CONFIRM_LINK_EXPIRED_MESSAGE,
  CONFIRM_LINK_INVALID_MESSAGE,
  CONFIRM_LINK_TTL_MS,
  UNSUBSCRIBE_LINK_INVALID_MESSAGE,
} from "#domain/newsletter.ts";
import { createSubscriptionTokens } from "./subscriptions.ts";

const SECRET = "a session secret of at least thirty-two characters";

function tokensAt(start: number, secret = SECRET) {
  let now = start;
  const tokens = createSubscriptionTokens({ secret, now: () => new Date(now) });
  return { tokens, advance: (ms: number) => (now += ms) };
}

function refusal(read: () => unknown): { code: string; status: number; message: string } | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, status: error.status, message: error.message };
  }
}

const INVALID_CONFIRM = { code: "SUBSCRIPTION_LINK_INVALID", status: 400, message: CONFIRM_LINK_INVALID_MESSAGE };
const INVALID_UNSUBSCRIBE = {
  code: "SUBSCRIPTION_LINK_INVALID",
  status: 400,
  message: UNSUBSCRIBE_LINK_INVALID_MESSAGE,
};

describe("newsletter tokens", () => {
  it("are URL-safe and read back as the subscriber they were made for", () => {
    const { tokens } = tokensAt(Date.parse("2026-03-05T10:00:00Z"));
    const confirm = tokens.confirmToken("sub_ID-1");
    const unsubscribe = tokens.unsubscribeToken("sub_ID-1");
    for (const token of [confirm, unsubscribe]) expect(encodeURIComponent(token)).toBe(token);
    expect(tokens.readConfirmToken(confirm)).toEqual({
      subscriberId: "sub_ID-1",
      issuedAt: new Date("2026-03-05T10:00:00Z"),
    });
    expect(tokens.readUnsubscribeToken(unsubscribe)).toBe("sub_ID-1");
    expect(tokens.unsubscribeToken("sub_ID-1")).toBe(unsubscribe);
  });

  it("lets a confirmation link work for 7 days, and an unsubscribe link for ever", () => {
    const { tokens, advance } = tokensAt(Date.parse("2026-03-05T10:00:00Z"));
    const confirm = tokens.confirmToken("abc");
    const unsubscribe = tokens.unsubscribeToken("abc");
    advance(CONFIRM_LINK_TTL_MS - 1000);
    expect(tokens.readConfirmToken(confirm).subscriberId).toBe("abc");
    advance(1000);
    expect(refusal(() => tokens.readConfirmToken(confirm))).toEqual({
      code: "SUBSCRIPTION_LINK_EXPIRED",
      status: 410,
      message: CONFIRM_LINK_EXPIRED_MESSAGE,
    });
    advance(10 * 365 * 24 * 60 * 60 * 1000);
    expect(tokens.readUnsubscribeToken(unsubscribe)).toBe("abc");
  });

  it("refuses a changed, cut, swapped or foreign token with a clear message", () => {
    const { tokens } = tokensAt(Date.parse("2026-03-05T10:00:00Z"));
    const confirm = tokens.confirmToken("abc");
    const unsubscribe = tokens.unsubscribeToken("abc");
    const other = tokensAt(Date.parse("2026-03-05T10:00:00Z"), `${SECRET} but another`).tokens;
    const changedConfirms = [
      confirm.replace("c.abc.", "c.abd."),
      confirm.slice(0, -1) + (confirm.endsWith("A") ? "B" : "A"),
      confirm.slice(0, -2),
      // A later expiry, signed with the old signature.
      confirm.replace(
        /^c\.abc\.([0-9a-z]+)\./,
        (_, expires: string) => `c.abc.${(parseInt(expires, 36) + 1).toString(36)}.`,
      ),
      unsubscribe,
      other.confirmToken("abc"),
      "",
      "c..x.y",
      "c.abc.zzzzzzzzzzzzzz.sig",
      "c.a b.1.sig",
      "x".repeat(10_000),
    ];
    for (const token of changedConfirms)
      expect(
        refusal(() => tokens.readConfirmToken(token)),
        token,
      ).toEqual(INVALID_CONFIRM);
    for (const token of [confirm, other.unsubscribeToken("abc"), "u.abc", "u.abc.", `${unsubscribe}.x`]) {
      expect(
        refusal(() => tokens.readUnsubscribeToken(token)),
        token,
      ).toEqual(INVALID_UNSUBSCRIBE);
    }
  });
});
