import { describe, expect, it, vi } from "vitest";
import { createRouteTestContext, postForm, routeArgs, TEST_ADMIN } from "../../../tests/support/route-context.ts";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import { action as deleteAction } from "./posts";
import { action as createAction } from "./post-new";

type DeleteArgs = Parameters<typeof deleteAction>[0];
type CreateArgs = Parameters<typeof createAction>[0];

const validPost = {
  title: "A post",
  content: "<p>Body</p>",
  excerpt: "Short",
  author: "Ada",
  coverImage: "https://images.example.com/a.jpg",
  category: "Design",
  tags: ["one", "two"],
  newTags: "three, one",
  published: "on",
};

describe("admin actions", () => {
  it("logs a failed delete and shows the list as it was, without a message", async () => {
    const deletePost = vi.fn(() => Promise.reject(new DatabaseUnavailableError()));
    const { context, logger } = createRouteTestContext({ posts: { deletePost } }, TEST_ADMIN);
    // A delete sent by the client router arrives as a data request; the list it returns to is the page.
    const request = postForm("http://blog.test/admin/posts.data", { intent: "delete", id: "abc", q: "go" });
    const response = (await deleteAction(routeArgs(request, context) as DeleteArgs)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/posts?q=go");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it("keeps what was typed and says 'Failed to save post. Please try again.' when saving fails", async () => {
    const createPost = vi.fn(() => Promise.reject(new DatabaseUnavailableError()));
    const { context, logger } = createRouteTestContext({ posts: { createPost } }, TEST_ADMIN);
    const request = postForm("http://blog.test/admin/posts/new", validPost);
    const result = await createAction(routeArgs(request, context) as CreateArgs);
    expect(result).toMatchObject({
      data: {
        formError: "Failed to save post. Please try again.",
        values: { title: "A post", tags: ["one", "two", "three"], published: true },
      },
      init: { status: 503 },
    });
    expect(createPost).toHaveBeenCalledWith(
      expect.objectContaining({ tags: ["one", "two", "three"], published: true }),
      // Who saved it, for its revisions and the audit log.
      expect.objectContaining({ email: TEST_ADMIN.email, label: "ada" }),
    );
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it("refuses every action without a session, before reading the request", async () => {
    const deletePost = vi.fn();
    const createPost = vi.fn();
    const { context } = createRouteTestContext({ posts: { deletePost, createPost } }, null);
    const attempts = [
      () =>
        deleteAction(
          routeArgs(postForm("http://blog.test/admin/posts", { intent: "delete", id: "a" }), context) as DeleteArgs,
        ),
      () => createAction(routeArgs(postForm("http://blog.test/admin/posts/new", validPost), context) as CreateArgs),
    ];
    for (const attempt of attempts) {
      const thrown = await attempt().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    }
    expect(deletePost).not.toHaveBeenCalled();
    expect(createPost).not.toHaveBeenCalled();
  });
});
