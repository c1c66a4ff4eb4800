import { describe, expect, it, vi } from "vitest";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import type { SessionUser } from "../../../server/accounts/index.ts";
import { loader } from "./webhooks";
import { action as createAction } from "./webhooks-create";
import { action as removeAction } from "./webhooks-remove";

const TEST_EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", username: "eddie", role: "editor" };

function webhookServices() {
  return {
    webhooks: {
      list: vi.fn(() => Promise.resolve([])),
      create: vi.fn(() =>
        Promise.resolve({ event: "post.published", url: "https://hooks.example.com/", secret: "whsec_x" }),
      ),
      remove: vi.fn(() => Promise.resolve()),
    },
  };
}

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs);

describe("Settings → Webhooks", () => {
  it("answers an editor's visit and forged posts with 403 and touches no webhook", async () => {
    const services = webhookServices();
    const { context } = createRouteTestContext(services, TEST_EDITOR);
    const visit = await settle(() => call(loader, new Request("http://blog.test/admin/settings/webhooks"), context));
    expect(visit).toMatchObject({ status: 403, body: { message: "Only the owner can open this page" } });
    const form = { event: "post.published", url: "https://hooks.example.com/" };
    const created = await settle(() =>
      call(createAction, postForm("http://blog.test/admin/settings/webhooks/create", form), context),
    );
    const removed = await settle(() =>
      call(removeAction, postForm("http://blog.test/admin/settings/webhooks/remove", { id: "hook-1" }), context),
    );
    expect([created.status, removed.status]).toEqual([403, 403]);
    for (const method of Object.values(services.webhooks)) expect(method).not.toHaveBeenCalled();
  });

  it("hands the owner's new webhook to the service and answers its secret once", async () => {
    const services = webhookServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const outcome = await settle(() =>
      call(
        createAction,
        postForm("http://blog.test/admin/settings/webhooks/create", {
          event: "comment.received",
          url: " https://hooks.example.com/comments ",
        }),
        context,
      ),
    );
    expect(services.webhooks.create).toHaveBeenCalledWith(expect.objectContaining({ id: TEST_ADMIN.id }), {
      event: "comment.received",
      url: "https://hooks.example.com/comments",
    });
    expect(outcome).toMatchObject({ body: { created: { secret: "whsec_x" } } });
  });

  it("refuses a URL that is not http(s) with a plain message and calls nothing", async () => {
    const services = webhookServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const outcome = await settle(() =>
      call(
        createAction,
        postForm("http://blog.test/admin/settings/webhooks/create", {
          event: "post.updated",
          url: "file:///etc/passwd",
        }),
        context,
      ),
    );
    expect(outcome).toMatchObject({
      status: 400,
      body: { errors: { url: "The URL must start with https:// or http://" } },
    });
    expect(services.webhooks.create).not.toHaveBeenCalled();
  });
});
