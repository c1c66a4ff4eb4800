import { data, redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, DomainError } from "#domain/errors.ts";
import { createRouteTestContext, settle } from "../../tests/support/route-context.ts";
import { answerDomainErrors, withRouteErrors } from "./route-errors.server.ts";

describe("the one mapping of domain errors to responses", () => {
  it("turns a domain error in a loader into its error page, with the route's message and Retry-After", async () => {
    const { context, logger } = createRouteTestContext({});
    const loader = withRouteErrors({ DATABASE_UNAVAILABLE: "Failed to load posts. Please try again." }, async () => {
      throw new DatabaseUnavailableError("connection refused");
    });
    const page = await settle(() => loader({ context }));
    expect(page).toMatchObject({ status: 503, body: { message: "Failed to load posts. Please try again." } });
    expect(page.headers.get("Retry-After")).toBe("5");
    // The outage's cause goes to the request's one log line.
    expect(logger.error).toHaveBeenCalledTimes(1);

    const missing = withRouteErrors({}, async () => {
      throw new DomainError("POST_NOT_FOUND", "Post not found");
    });
    expect(await settle(() => missing({ context }))).toMatchObject({
      status: 404,
      body: { message: "Post not found" },
    });
  });

  it("lets redirects, thrown responses and bugs pass untouched", async () => {
    const { context } = createRouteTestContext({});
    const moved = withRouteErrors({}, async () => {
      throw redirect("/login");
    });
    expect((await settle(() => moved({ context }))).headers.get("Location")).toBe("/login");
    const refused = withRouteErrors({}, async () => {
      throw data({ message: "Unknown action" }, { status: 400 });
    });
    expect(await settle(() => refused({ context }))).toMatchObject({ status: 400 });
    const bug = withRouteErrors({}, async () => {
      throw new TypeError("undefined is not a function");
    });
    await expect(bug({ context })).rejects.toBeInstanceOf(TypeError);
  });

  it("answers in the route's own shape when it has one, and returns the work's result otherwise", async () => {
    const { context } = createRouteTestContext({});
    const answer = (failure: { status: number; message: string }) => ({
      refused: failure.message,
      status: failure.status,
    });
    const refused = await answerDomainErrors(context, { messages: { SLUG_TAKEN: "Taken" }, answer }, async () => {
      throw new DomainError("SLUG_TAKEN", "Another post already uses this slug");
    });
    expect(refused).toEqual({ refused: "Taken", status: 409 });
    expect(await answerDomainErrors(context, { answer }, async () => "done")).toBe("done");
  });
});
