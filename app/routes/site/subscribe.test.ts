import { describe, expect, it, vi } from "vitest";
import { createRouteTestContext, postForm, routeArgs } from "../../../tests/support/route-context.ts";
import { DomainError, RateLimitedError } from "#domain/errors.ts";
import { SUBSCRIBE_ANSWER, SUBSCRIPTIONS_CLOSED_MESSAGE } from "#domain/newsletter.ts";
import { action } from "./subscribe";

type ActionArgs = Parameters<typeof action>[0];

function servicesFor(subscribe: () => Promise<unknown>) {
  return { subscriptions: { subscribe: vi.fn(subscribe) } };
}

async function submit(services: ReturnType<typeof servicesFor>, fields: Record<string, string>) {
  const { context } = createRouteTestContext(services, null, "203.0.113.7");
  return action(routeArgs(postForm("http://blog.test/subscribe", fields), context) as ActionArgs);
}

describe("the subscribe action", () => {
  it("hands the address, the visitor's address and the honeypot to the service, and answers on the subscribe page", async () => {
    const services = servicesFor(() => Promise.resolve(SUBSCRIBE_ANSWER));
    const result = await submit(services, { email: " Reader@Example.COM ", website: "" });
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(303);
    expect((result as Response).headers.get("Location")).toBe("/subscribe?sent=1");
    expect(services.subscriptions.subscribe).toHaveBeenCalledWith("Reader@example.com", {
      clientAddress: "203.0.113.7",
      honeypot: undefined,
    });

    await submit(services, { email: "bot@example.com", website: "https://spam.example" });
    expect(services.subscriptions.subscribe).toHaveBeenLastCalledWith("bot@example.com", {
      clientAddress: "203.0.113.7",
      honeypot: "https://spam.example",
    });
  });

  it("refuses an address that is not one on its field, without asking the service", async () => {
    const services = servicesFor(() => Promise.reject(new Error("not called")));
    const result = await submit(services, { email: "not an address" });
    expect(result).toMatchObject({
      data: { errors: { email: "Please enter a valid email address" }, values: { email: "not an address" } },
      init: { status: 400 },
    });
    expect(services.subscriptions.subscribe).not.toHaveBeenCalled();
  });

  it("says subscriptions are not open yet while email is off (403)", async () => {
    const services = servicesFor(() =>
      Promise.reject(new DomainError("SUBSCRIPTIONS_CLOSED", SUBSCRIPTIONS_CLOSED_MESSAGE)),
    );
    const result = await submit(services, { email: "reader@example.com" });
    expect(result).toMatchObject({ data: { formError: SUBSCRIPTIONS_CLOSED_MESSAGE }, init: { status: 403 } });
  });

  it("answers too many attempts from one address with 429 and Retry-After", async () => {
    const services = servicesFor(() => Promise.reject(new RateLimitedError(1800)));
    const result = await submit(services, { email: "reader@example.com" });
    expect(result).toMatchObject({
      data: { formError: "You are subscribing too often. Please wait an hour and try again." },
      init: { status: 429, headers: { "Retry-After": "1800" } },
    });
  });
});
