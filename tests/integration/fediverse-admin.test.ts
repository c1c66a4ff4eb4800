import { describe, expect, it } from "vitest";
import { appContext } from "#server/request-context.ts";
import { loader } from "../../app/routes/admin/fediverse.tsx";
import { action as followersAction } from "../../app/routes/admin/fediverse-followers.tsx";
import { action as settingsAction } from "../../app/routes/admin/fediverse-settings.tsx";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";

type AnyArgs = never;

function follower(name: string) {
  return {
    actorUrl: `https://social.example/users/${name}`,
    handle: `@${name}@social.example`,
    inboxUrl: `https://social.example/users/${name}/inbox`,
    sharedInboxUrl: "https://social.example/inbox",
    followActivityId: `https://social.example/follows/${name}`,
  };
}

describe.each(testDialects())("the Fediverse screen on $dialect", (target) => {
  const blog = useFederatedBlog(target);

  function ownerContext() {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    context.set(appContext, {
      ...context.get(appContext),
      site: { ...context.get(appContext).site, siteUrl: blog.siteUrl },
      federation: blog.fediverse.requestHandle,
    });
    return context;
  }

  it("shows what the fediverse did: followers, requests waiting, and a post's likes, boosts and replies", async () => {
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Followed" }), TEST_WRITER);
    const alice = follower("alice");
    await blog.services.fediverse.followFrom(alice);
    for (const kind of ["like", "announce"] as const) {
      await blog.services.fediverse.recordReaction({
        postId: post.id,
        kind,
        actorUrl: alice.actorUrl,
        activityId: `https://social.example/${kind}/1`,
      });
    }
    await blog.services.fediverse.receiveReply({
      postId: post.id,
      noteUrl: "https://social.example/notes/1",
      actorUrl: alice.actorUrl,
      actorHandle: alice.handle,
      authorName: "Alice",
      contentHtml: "<p>Nice post</p>",
    });

    let context = ownerContext();
    const saved = await settle(() =>
      settingsAction(
        routeArgs(
          postForm("http://blog.test/admin/fediverse/settings", {
            handle: "writer",
            approveFollowsByHand: "on",
            blocked: "",
          }),
          context,
        ) as AnyArgs,
      ),
    );
    expect(saved.headers.get("Location")).toBe("/admin/fediverse");
    await blog.services.fediverse.followFrom(follower("bob"));

    context = ownerContext();
    const page = await settle(() =>
      loader(routeArgs(new Request("http://blog.test/admin/fediverse"), context) as AnyArgs),
    );
    expect(page.body).toMatchObject({
      address: `@writer@${new URL(blog.siteUrl).host}`,
      settings: { handle: "writer", approveFollowsByHand: true },
      followers: { total: 1, page: 1, pageCount: 1, items: [{ handle: alice.handle, server: "social.example" }] },
      pending: { total: 1, items: [{ handle: "@bob@social.example" }] },
      posts: { items: [{ id: post.id, title: "Followed", likes: 1, boosts: 1, replies: 1 }] },
    });
    const past = await settle(() =>
      loader(routeArgs(new Request("http://blog.test/admin/fediverse?page=2"), context) as AnyArgs),
    );
    expect(past).toMatchObject({ status: 404, body: { message: "Page not found" } });
  });

  it("approves a request, rejects another and removes a follower; a follower already gone is a 404", async () => {
    await blog.services.fediverse.saveSettings(
      { handle: "blog", approveFollowsByHand: true, blocked: "" },
      { id: TEST_ADMIN.id, label: TEST_ADMIN.username },
    );
    const carol = (await blog.services.fediverse.followFrom(follower("carol")))!;
    const dave = (await blog.services.fediverse.followFrom(follower("dave")))!;
    expect([carol.state, dave.state]).toEqual(["pending", "pending"]);
    const context = ownerContext();
    const press = (intent: string, id: string) =>
      settle(() =>
        followersAction(
          routeArgs(postForm("http://blog.test/admin/fediverse/followers", { intent, id }), context) as AnyArgs,
        ),
      );

    expect((await press("approve", carol.id)).headers.get("Location")).toBe("/admin/fediverse");
    expect(await blog.services.fediverse.findFollower(carol.id)).toMatchObject({ state: "accepted" });
    expect((await press("reject", dave.id)).headers.get("Location")).toBe("/admin/fediverse");
    expect(await blog.services.fediverse.findFollower(dave.id)).toBeUndefined();
    expect((await press("remove", carol.id)).headers.get("Location")).toBe("/admin/fediverse");
    expect(await blog.services.fediverse.countFollowers()).toEqual({ accepted: 0, pending: 0 });

    expect(await press("approve", dave.id)).toMatchObject({
      status: 404,
      body: { formError: "That follower is not on the list any more" },
    });
  });
});
