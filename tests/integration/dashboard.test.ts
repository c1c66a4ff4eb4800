import { describe, expect, it } from "vitest";
import type { SessionUser } from "#server/accounts/index.ts";
import { createServices } from "../../server/composition.ts";
import { loader as dashboardLoader } from "../../app/routes/admin/posts.tsx";
import { loadDashboardSummary } from "../../app/lib/dashboard.server.ts";
import { testDialects } from "../support/databases.ts";
import { createPosts } from "../support/factories.ts";
import { createRouteTestContext, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { recordStatements } from "../support/statements.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

// The test blog's clock starts at 2026-03-05T10:00:00Z.
const EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", username: "eve", role: "editor" };
const DAY_MS = 86_400_000;

describe.each(testDialects())("the Dashboard's summary on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  async function seed() {
    const { handle, services, clock } = blog;
    const [post] = await createPosts(services, clock, [
      { title: "Out", published: true },
      { title: "Draft one", published: false },
      { title: "Draft two", published: false },
      { title: "Later", published: true, publishAt: "2026-04-01T09:00" },
    ]);
    await services.comments.saveSettings({ holdAll: true, blocklist: "", closeAfterDays: null });
    await services.comments.addComment(post!.id, { author: "Ann", content: "Held" });
    const at = (daysAgo: number) => new Date(clock.now().getTime() - daysAgo * DAY_MS).toISOString();
    await handle.db
      .insertInto("subscribers")
      .values(
        [
          { id: "s-new", email: "new@example.com", state: "active" as const, created_at: at(1) },
          { id: "s-old", email: "old@example.com", state: "active" as const, created_at: at(30) },
          { id: "s-pending", email: "pending@example.com", state: "pending" as const, created_at: at(1) },
        ].map((row) => ({ ...row, source: "form" as const, confirmed_at: null, unsubscribed_at: null })),
      )
      .execute();
    await handle.db
      .insertInto("fediverse_followers")
      .values(
        [
          { id: "f-new", state: "accepted" as const, created_at: at(2) },
          { id: "f-old", state: "accepted" as const, created_at: at(9) },
          { id: "f-pending", state: "pending" as const, created_at: at(2) },
        ].map((row) => ({
          ...row,
          actor_url: `https://social.example/users/${row.id}`,
          handle: `@${row.id}@social.example`,
          server: "social.example",
          inbox_url: `https://social.example/users/${row.id}/inbox`,
          shared_inbox_url: null,
          follow_activity_id: null,
        })),
      )
      .execute();
    await handle.db
      .insertInto("analytics_daily")
      .values([
        { day: "2026-02-26", dimension: "total", value: "", views: 500, visitors: 200 },
        { day: "2026-02-27", dimension: "total", value: "", views: 10, visitors: 4 },
        { day: "2026-03-05", dimension: "total", value: "", views: 30, visitors: 12 },
        { day: "2026-03-05", dimension: "path", value: "/", views: 30, visitors: 12 },
      ])
      .execute();
    // The rollup pass keeps each month beside its days; a week reads whole months where that is shorter.
    await handle.db
      .insertInto("analytics_monthly")
      .values([
        { month: "2026-02", dimension: "total", value: "", views: 510, visitors: 204 },
        { month: "2026-03", dimension: "total", value: "", views: 30, visitors: 12 },
      ])
      .execute();
  }

  function recordedServices() {
    const recorded = recordStatements(blog.handle.db);
    const services = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    return { services, statements: recorded.statements };
  }

  it("counts drafts, scheduled posts, held comments, the week's traffic and newcomers, one statement a figure", async () => {
    await seed();
    const { services, statements } = recordedServices();
    const summary = await loadDashboardSummary(services, TEST_ADMIN, "UTC");
    expect(summary).toEqual({
      drafts: 2,
      scheduled: 1,
      pendingComments: 1,
      views: 40,
      visitors: 16,
      newSubscribers: 1,
      newFollowers: 1,
    });
    // Posts, comments, subscribers and followers one each; analytics the rollup's watermark, its tail and the week's rows.
    expect(statements).toHaveLength(7);
  });

  it("leaves the owner's figures out of an editor's summary, without reading them", async () => {
    await seed();
    const { services, statements } = recordedServices();
    const summary = await loadDashboardSummary(services, EDITOR, "UTC");
    expect(summary).not.toHaveProperty("newSubscribers", expect.anything());
    expect(summary).not.toHaveProperty("newFollowers", expect.anything());
    expect(statements.some((statement) => /subscribers|fediverse_followers/.test(statement))).toBe(false);
  });

  it("shows the summary on the Dashboard only, above the same posts list Blog Posts shows", async () => {
    await seed();
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const load = (path: string) =>
      settle(() => dashboardLoader(routeArgs(new Request(`http://blog.test${path}`), context) as never));
    const dashboard = (await load("/admin")).body as { summary: unknown; posts: unknown[] };
    const list = (await load("/admin/posts")).body as { summary: unknown; posts: unknown[] };
    expect(dashboard.summary).toMatchObject({ drafts: 2, newFollowers: 1 });
    expect(list.summary).toBeNull();
    expect(dashboard.posts).toEqual(list.posts);
  });

  it("opens the list on the drafts or the scheduled posts its figures count, and on every post for anything else", async () => {
    await seed();
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    const titles = async (query: string) => {
      const { body } = await settle(() =>
        dashboardLoader(routeArgs(new Request(`http://blog.test/admin/posts${query}`), context) as never),
      );
      return (body as { posts: { title: string }[] }).posts.map((post) => post.title);
    };
    expect(await titles("?status=draft")).toEqual(["Draft two", "Draft one"]);
    expect(await titles("?status=scheduled")).toEqual(["Later"]);
    expect(await titles("?status=draft&q=two")).toEqual(["Draft two"]);
    expect(await titles("?status=everything")).toHaveLength(4);
    // A scheduled post whose time has come is published, so no longer listed as scheduled.
    blog.clock.advance(30 * DAY_MS);
    expect(await titles("?status=scheduled")).toEqual([]);
  });
});
