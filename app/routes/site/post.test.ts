import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, DomainError, RateLimitedError } from "#domain/errors.ts";
import { action } from "./post";
import { createRouteTestContext, routeArgs, settle } from "../../../tests/support/route-context.ts";

function postComment(fields: Record<string, string>, addComment: (...args: never[]) => Promise<unknown>) {
  const context = createRouteTestContext(
    { comments: { addComment: addComment as never } },
    null,
    "198.51.100.4",
  ).context;
  const init = { method: "POST", body: new URLSearchParams(fields) };
  return settle(() =>
    action(routeArgs(new Request("http://localhost/blog/post-1", init), context, { slug: "post-1" })),
  );
}

const neverCalled = async () => {
  throw new Error("the service must not be called");
};

describe("adding a comment", () => {
  it("trims the values, passes the visitor's address and redirects to the new comment", async () => {
    const calls: unknown[][] = [];
    const outcome = await postComment({ author: "  Ann  ", content: "\n Hello \n" }, async (...args: unknown[]) => {
      calls.push(args);
      return { id: "c1", postSlug: "post-1" };
    });
    expect(calls).toEqual([["post-1", { author: "Ann", content: "Hello" }, { clientAddress: "198.51.100.4" }]]);
    expect(outcome.status).toBe(303);
    expect(outcome.headers.get("Location")).toBe("/blog/post-1#comment-c1");
  });

  it("reads line breaks as the browser counted them, so a comment at the limit still fits", async () => {
    const contents: string[] = [];
    const lines = `${"x".repeat(99)}\r\n`.repeat(50);
    const outcome = await postComment({ author: "Ann", content: lines }, async (...args: unknown[]) => {
      contents.push((args[1] as { content: string }).content);
      return { id: "c2", postSlug: "post-1" };
    });
    expect(outcome.status).toBe(303);
    expect(contents[0]).toHaveLength(5000 - 1);
    expect(contents[0]).not.toContain("\r");
  });

  it("answers 400 with the spec's messages and keeps what was typed", async () => {
    const outcome = await postComment({ author: "   ", content: "" }, neverCalled);
    expect(outcome).toMatchObject({
      status: 400,
      body: {
        values: { author: "   ", content: "" },
        errors: { author: "Please enter your name", content: "Please enter a comment" },
      },
    });
  });

  it("answers 400 for a name over 80 or a comment over 5,000 characters", async () => {
    const outcome = await postComment({ author: "n".repeat(81), content: "c".repeat(5001) }, neverCalled);
    expect(outcome).toMatchObject({
      status: 400,
      body: {
        errors: {
          author: "Name must be at most 80 characters",
          content: "Comment must be at most 5,000 characters",
        },
      },
    });
  });

  it("answers 503 'Failed to add comment. Please try again.' when the write fails", async () => {
    const outcome = await postComment({ author: "Ann", content: "Hi" }, () =>
      Promise.reject(new DatabaseUnavailableError()),
    );
    expect(outcome).toMatchObject({
      status: 503,
      body: { formError: "Failed to add comment. Please try again.", values: { author: "Ann", content: "Hi" } },
    });
  });

  it("answers 429 with a retry time when the visitor comments too often", async () => {
    const outcome = await postComment({ author: "Ann", content: "Hi" }, () =>
      Promise.reject(new RateLimitedError(120)),
    );
    expect(outcome.status).toBe(429);
    expect(outcome.headers.get("Retry-After")).toBe("120");
    expect(outcome.body).toMatchObject({ formError: expect.stringContaining("commenting too often") });
  });

  it("answers 404 for a draft, as the page itself would", async () => {
    const outcome = await postComment({ author: "Ann", content: "Hi" }, () =>
      Promise.reject(new DomainError("POST_NOT_AVAILABLE", "This post is not available")),
    );
    expect(outcome).toMatchObject({ status: 404, body: { message: "This post is not available" } });
  });
});
