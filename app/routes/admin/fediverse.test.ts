import { describe, expect, it, vi } from "vitest";
import { DomainError } from "#domain/errors.ts";
import { appContext } from "#server/request-context.ts";
import { takeFlash } from "~/lib/flash.server";
import type { SessionUser } from "../../../server/accounts/index.ts";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import { buildPostInput } from "../../../tests/support/factories.ts";
import { loader } from "./fediverse";
import { action as followersAction } from "./fediverse-followers";
import { action as settingsAction } from "./fediverse-settings";
import { loader as postEditLoader } from "./post-edit";
import { loader as siteLayoutLoader } from "../site/layout";

const TEST_EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", username: "eddie", role: "editor" };

const alice = {
  id: "f_alice",
  actorUrl: "https://social.example/users/alice",
  handle: "@alice@social.example",
  server: "social.example",
  state: "accepted" as const,
  createdAt: "2026-01-02T03:04:05.000Z",
};
const bob = { ...alice, id: "f_bob", actorUrl: "https://other.example/@bob", handle: "@bob@other.example" };

function fediverseServices({ approveFollowsByHand = false } = {}) {
  return {
    fediverse: {
      settings: vi.fn(() => Promise.resolve({ handle: "writer", approveFollowsByHand, blocked: "spam.example" })),
      saveSettings: vi.fn(() => Promise.resolve()),
      listFollowers: vi.fn(({ state, page }: { state: string; page: number }) =>
        Promise.resolve(
          state === "accepted"
            ? { items: [alice], total: 21, page: Math.min(page, 2), pageCount: 2 }
            : { items: [{ ...bob, state: "pending" }], total: 1, page, pageCount: 1 },
        ),
      ),
      findFollower: vi.fn((id: string) => Promise.resolve(id === "f_gone" ? undefined : bob)),
      postCountsFor: vi.fn((ids: string[]) =>
        Promise.resolve(new Map(ids.map((id) => [id, { likes: 3, boosts: 2, replies: 1 }]))),
      ),
    },
    posts: {
      listPublishedPosts: vi.fn((_query: string | undefined, page: number, pageSize: number) =>
        Promise.resolve({
          items: [{ id: "post_new", title: "Newest", slug: "newest" }],
          total: 30,
          page,
          pageSize,
        }),
      ),
    },
    // The site layout also reads the menus.
    navigation: {
      links: vi.fn(() => Promise.resolve({ header: [], footer: [] })),
      offlineLinks: vi.fn(() => ({ header: [], footer: [] })),
    },
  };
}

function withFederation(context: ReturnType<typeof createRouteTestContext>["context"]) {
  const federation = {
    acceptFollower: vi.fn(() => Promise.resolve()),
    rejectFollower: vi.fn(() => Promise.resolve()),
    handleUrl: () => "@writer@blog.test",
  };
  context.set(appContext, { ...context.get(appContext), federation } as never);
  return federation;
}

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs);

async function flashOf(response: { headers: Headers }, path: string) {
  const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await takeFlash(new Request(`http://blog.test${path}`, { headers: { Cookie: cookie } }))).message;
}

describe("the Fediverse screen", () => {
  it("shows the owner the handle to share, the settings, a page of followers and each post's counts", async () => {
    const services = fediverseServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const page = await settle(() => call(loader, new Request("http://blog.test/admin/fediverse?page=2"), context));
    expect(page).toMatchObject({
      status: 200,
      body: {
        address: "@writer@blog.test",
        settings: { handle: "writer", approveFollowsByHand: false, blocked: "spam.example" },
        followers: { items: [{ id: "f_alice", handle: "@alice@social.example", server: "social.example" }], page: 2 },
        posts: { page: 1, items: [{ id: "post_new", title: "Newest", likes: 3, boosts: 2, replies: 1 }] },
      },
    });
    expect(services.fediverse.listFollowers).toHaveBeenCalledWith({ state: "accepted", page: 2 });
    expect(services.fediverse.postCountsFor).toHaveBeenCalledWith(["post_new"]);
  });

  it("lists follow requests while they are approved by hand, or while some still wait", async () => {
    const byHand = fediverseServices({ approveFollowsByHand: true });
    const { context } = createRouteTestContext(byHand, TEST_ADMIN);
    const page = await settle(() => call(loader, new Request("http://blog.test/admin/fediverse"), context));
    expect(page.body).toMatchObject({ pending: { items: [{ id: "f_bob", handle: "@bob@other.example" }], total: 1 } });
  });

  it("answers 404 to a page of followers or of posts that names nothing", async () => {
    const services = fediverseServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    for (const query of ["page=0", "page=abc", "page=3", "posts=-1", "posts=9"]) {
      const outcome = await settle(() =>
        call(loader, new Request(`http://blog.test/admin/fediverse?${query}`), context),
      );
      expect(outcome, query).toMatchObject({ status: 404, body: { message: "Page not found" } });
    }
  });

  it("is the owner's alone: an editor's visit and forged posts get 403 and change nothing", async () => {
    const services = fediverseServices();
    const { context } = createRouteTestContext(services, TEST_EDITOR);
    const federation = withFederation(context);
    const visit = await settle(() => call(loader, new Request("http://blog.test/admin/fediverse"), context));
    expect(visit).toMatchObject({ status: 403, body: { message: "Only the owner can open this page" } });
    const saved = await settle(() =>
      call(
        settingsAction,
        postForm("http://blog.test/admin/fediverse/settings", { handle: "taken", blocked: "" }),
        context,
      ),
    );
    expect(saved.status).toBe(403);
    for (const intent of ["remove", "approve", "reject"]) {
      const outcome = await settle(() =>
        call(followersAction, postForm("http://blog.test/admin/fediverse/followers", { intent, id: "f_bob" }), context),
      );
      expect(outcome.status, intent).toBe(403);
    }
    for (const method of Object.values(services.fediverse)) expect(method).not.toHaveBeenCalled();
    expect(federation.acceptFollower).not.toHaveBeenCalled();
    expect(federation.rejectFollower).not.toHaveBeenCalled();
  });

  it("saves the settings and says so; a wrong handle or blocked line is refused with its message", async () => {
    const services = fediverseServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const settingsPost = (fields: Record<string, string>) =>
      settle(() => call(settingsAction, postForm("http://blog.test/admin/fediverse/settings", fields), context));

    const badHandle = await settingsPost({ handle: "my blog!", blocked: "" });
    expect(badHandle).toMatchObject({
      status: 400,
      body: { values: { handle: "my blog!" }, errors: { handle: "The handle must be 1 to 30 letters or digits" } },
    });
    const badLine = await settingsPost({ handle: "writer", blocked: "spam.example\nnot a domain" });
    expect(badLine).toMatchObject({
      status: 400,
      body: { errors: { blocked: expect.stringMatching(/"not a domain".* is neither a domain/) } },
    });
    expect(services.fediverse.saveSettings).not.toHaveBeenCalled();

    const saved = await settingsPost({
      handle: " writer2 ",
      approveFollowsByHand: "on",
      blocked: "spam.example\r\n\r\nhttps://bad.example/users/troll\r\n",
    });
    expect(saved.headers.get("Location")).toBe("/admin/fediverse");
    expect(await flashOf(saved, "/admin/fediverse")).toBe("Fediverse settings saved.");
    expect(services.fediverse.saveSettings).toHaveBeenCalledWith(
      { handle: "writer2", approveFollowsByHand: true, blocked: "spam.example\nhttps://bad.example/users/troll" },
      { id: TEST_ADMIN.id, label: TEST_ADMIN.username },
    );
  });

  it("approves and rejects a follow request, and removes a follower, answering their server through the federation", async () => {
    const services = fediverseServices({ approveFollowsByHand: true });
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const federation = withFederation(context);
    const followerPost = (fields: Record<string, string>) =>
      settle(() => call(followersAction, postForm("http://blog.test/admin/fediverse/followers", fields), context));

    for (const [intent, notice] of [
      ["approve", "Follow request approved."],
      ["reject", "Follow request rejected."],
      ["remove", "Follower removed."],
    ] as const) {
      const done = await followerPost({ intent, id: "f_bob", back: "/admin/fediverse?page=2" });
      expect(done.headers.get("Location"), intent).toBe("/admin/fediverse?page=2");
      expect(await flashOf(done, "/admin/fediverse"), intent).toBe(notice);
    }
    expect(federation.acceptFollower).toHaveBeenCalledWith("f_bob");
    expect(federation.rejectFollower.mock.calls).toEqual([["f_bob"], ["f_bob"]]);

    const elsewhere = await followerPost({ intent: "remove", id: "f_bob", back: "https://evil.example/" });
    expect(elsewhere.headers.get("Location")).toBe("/admin/fediverse");
    const unknown = await followerPost({ intent: "block", id: "f_bob" });
    expect(unknown).toMatchObject({ status: 400, body: { formError: "Unknown action" } });

    for (const intent of ["approve", "reject", "remove"]) {
      const gone = await followerPost({ intent, id: "f_gone" });
      expect(gone, intent).toMatchObject({
        status: 404,
        body: { formError: "That follower is not on the list any more" },
      });
    }
    expect(federation.acceptFollower).toHaveBeenCalledTimes(1);
    expect(federation.rejectFollower).toHaveBeenCalledTimes(3);
  });

  it("shows any writer a published post's likes, boosts and replies in its editor; a draft has none", async () => {
    const POST_ID = "AAAAAAAAAAAAAAAA";
    for (const published of [true, false]) {
      const services = {
        fediverse: { postCounts: vi.fn(() => Promise.resolve({ likes: 4, boosts: 1, replies: 2 })) },
        webmention: {
          countsFor: vi.fn(() => Promise.resolve(new Map())),
          listForPost: vi.fn(() => Promise.resolve([])),
        },
        posts: {
          getPostForEditing: vi.fn(() =>
            Promise.resolve({
              ...buildPostInput({ published }),
              id: POST_ID,
              slug: "a-post",
              contentHtml: "",
              readingMinutes: 1,
              publishAt: null,
              newsletter: "off",
              createdAt: "2026-01-01T00:00:00.000Z",
              updatedAt: "2026-01-01T00:00:00.000Z",
            }),
          ),
          findUnsavedDraft: vi.fn(() => Promise.resolve(undefined)),
          listRevisions: vi.fn(() => Promise.resolve([])),
          findPreviewLinkCreatedAt: vi.fn(() => Promise.resolve(undefined)),
        },
        postNewsletter: { emailOn: false, findSends: vi.fn(() => Promise.resolve(new Map())) },
        categories: { list: vi.fn(() => Promise.resolve([])) },
        analyticsReports: { postViews: vi.fn(() => Promise.resolve(undefined)) },
      };
      const { context } = createRouteTestContext(services, TEST_EDITOR);
      const page = await settle(() =>
        postEditLoader(
          routeArgs(new Request(`http://blog.test/admin/posts/edit/${POST_ID}`), context, { id: POST_ID }) as never,
        ),
      );
      expect(page.status).toBe(200);
      expect((page.body as { fediverse?: unknown }).fediverse, String(published)).toEqual(
        published ? { likes: 4, boosts: 1, replies: 2 } : undefined,
      );
    }
  });

  it("gives readers' pages the handle for the footer, and leaves it out while the database is down", async () => {
    const services = fediverseServices();
    const { context, logger } = createRouteTestContext(services, null);
    const page = () => siteLayoutLoader(routeArgs(new Request("http://blog.test/about"), context) as never);
    expect(await page()).toEqual({ fediverseHandle: "@writer@blog.test", navigation: expect.any(Object) });
    services.fediverse.settings.mockRejectedValueOnce(new DomainError("DATABASE_UNAVAILABLE", "down"));
    expect(await page()).toEqual({ fediverseHandle: undefined, navigation: expect.any(Object) });
    expect(logger.error).toHaveBeenCalledOnce();
  });
});
