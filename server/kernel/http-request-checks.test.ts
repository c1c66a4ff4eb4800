import type { Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { requireSameOrigin } from "./http-request-checks.ts";

/** Runs the check on a POST to `path` with `headers`: whether it went on, or the status it answered. */
function postTo(path: string, headers: Record<string, string> = {}): "next" | number {
  let outcome: "next" | number = "next";
  const res = {
    status: (code: number) => {
      outcome = code;
      return res;
    },
    type: () => res,
    send: () => res,
  };
  const req = { method: "POST", path, get: (name: string) => headers[name.toLowerCase()] };
  const next = vi.fn();
  requireSameOrigin("http://blog.test")(req as unknown as Request, res as unknown as Response, next);
  return next.mock.calls.length > 0 ? "next" : outcome;
}

describe("the same-origin check", () => {
  it("refuses a POST that names no origin, or another site", () => {
    expect(postTo("/subscribe")).toBe(403);
    expect(postTo("/subscribe", { origin: "https://elsewhere.example" })).toBe(403);
    expect(postTo("/subscribe", { origin: "http://blog.test" })).toBe("next");
  });

  it("lets RFC 8058's one-click unsubscribe through: a mail provider sends it with no Origin or cookie", () => {
    expect(postTo("/unsubscribe")).toBe("next");
    expect(postTo("/unsubscribe", { origin: "https://mail.example" })).toBe("next");
    expect(postTo("/unsubscribe/other")).toBe(403);
  });
});
