import { describe, expect, it, vi } from "vitest";
import { createRouteTestContext, postForm, routeArgs, TEST_ADMIN } from "../../../tests/support/route-context.ts";
import { RateLimitedError } from "#domain/errors.ts";
import { action } from "./link-preview";

describe("the visual editor's link preview", () => {
  it("answers a writer past their cards with 429 and a whole number of seconds to wait", async () => {
    const services = { embeds: { card: vi.fn(() => Promise.reject(new RateLimitedError(2.5))) } };
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const request = postForm("http://blog.test/admin/link-preview", { url: "https://example.com/a" });
    const answer = (await action(routeArgs(request, context))) as Response;
    expect(answer.status).toBe(429);
    expect(answer.headers.get("Retry-After")).toBe("3");
    expect(await answer.json()).toEqual({ html: null });
  });
});
