import { describe, expect, it, vi } from "vitest";
import type { SessionUser } from "#server/accounts/index.ts";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import { buildPostInput } from "../../../tests/support/factories.ts";
import { loader } from "./analytics";
import { loader as postEditLoader } from "./post-edit";
import { loader as exportLoader } from "./analytics-export";
import { action as settingsAction, loader as settingsLoader } from "./analytics-settings";

const EDITOR: SessionUser = { ...TEST_ADMIN, id: "editor-1", username: "ed", role: "editor" };

function analyticsServices() {
  return {
    analytics: { settings: vi.fn(() => Promise.resolve({ enabled: true, retentionDays: 30 })) },
    analyticsReports: {
      today: vi.fn(() => "2026-03-15"),
      report: vi.fn((range: unknown) =>
        Promise.resolve({
          range,
          totals: { views: 5, visitors: 2 },
          previous: { views: 0, visitors: 0 },
          series: [],
          visitorsNow: 1,
          lists: [],
          subscribers: [],
          followers: [],
        }),
      ),
      exportCsv: vi.fn(async function* () {
        yield "path,views,visitors\r\n";
        yield "/blog/a,5,2\r\n";
      }),
    },
  };
}

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, url: string, context: unknown) =>
  settle(() => handler(routeArgs(new Request(url), context as Parameters<typeof routeArgs>[1]) as AnyArgs));

describe("the Analytics screen", () => {
  it("sends a visitor who is not signed in to the sign-in page, and lets owners and editors in", async () => {
    const services = analyticsServices();
    const signedOut = createRouteTestContext(services, null).context;
    for (const handler of [loader, exportLoader]) {
      const outcome = await call(handler, "http://blog.test/admin/analytics", signedOut);
      expect(outcome.status).toBe(302);
      expect(outcome.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    }
    expect(services.analyticsReports.report).not.toHaveBeenCalled();
    expect(services.analyticsReports.exportCsv).not.toHaveBeenCalled();

    for (const user of [TEST_ADMIN, EDITOR]) {
      const { context } = createRouteTestContext(services, user);
      expect((await call(loader, "http://blog.test/admin/analytics", context)).status).toBe(200);
    }
  });

  it("reads the range from the address in the site's time zone, today when none is given", async () => {
    const services = analyticsServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const page = await call(loader, "http://blog.test/admin/analytics", context);
    expect(page.body).toMatchObject({ today: "2026-03-15", timeZone: "UTC", counting: true });
    expect(services.analyticsReports.today).toHaveBeenCalledWith("UTC");
    expect(services.analyticsReports.report).toHaveBeenLastCalledWith(
      expect.objectContaining({ key: "today", from: "2026-03-15", to: "2026-03-15", granularity: "hour" }),
      "UTC",
      undefined,
    );
    await call(loader, "http://blog.test/admin/analytics?range=30d&list=source&page=3", context);
    expect(services.analyticsReports.report).toHaveBeenLastCalledWith(
      expect.objectContaining({ key: "30d", from: "2026-02-14", granularity: "day" }),
      "UTC",
      { dimension: "source", page: 3 },
    );
    await call(loader, "http://blog.test/admin/analytics?range=custom&from=2026-01-01&to=2026-01-31", context);
    expect(services.analyticsReports.report).toHaveBeenLastCalledWith(
      expect.objectContaining({
        key: "custom",
        from: "2026-01-01",
        to: "2026-01-31",
        previous: { from: "2025-12-01", to: "2025-12-31" },
      }),
      "UTC",
      undefined,
    );
  });

  it("answers 400 with the reason to a range it cannot read, and 404 to a list page that does not exist", async () => {
    const services = analyticsServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    for (const [query, message] of [
      ["range=forever", "Choose a range: today, 7 days, 30 days, 12 months or custom dates."],
      ["from=2026-02-30&to=2026-03-01", "Dates are written YYYY-MM-DD, for example 2026-03-05."],
      ["from=2026-03-02&to=2026-03-01", "The start date comes after the end date."],
      ["from=%3Cscript%3E&to=", "Dates are written YYYY-MM-DD, for example 2026-03-05."],
    ] as const) {
      const outcome = await call(loader, `http://blog.test/admin/analytics?${query}`, context);
      expect(outcome, query).toMatchObject({ status: 400, body: { message } });
    }
    for (const query of ["list=referrers&page=2", "list=path&page=0", "list=path&page=11", "list=path", "page=2"]) {
      const outcome = await call(loader, `http://blog.test/admin/analytics?${query}`, context);
      expect(outcome, query).toMatchObject({ status: 404, body: { message: "Page not found" } });
    }
    expect(services.analyticsReports.report).not.toHaveBeenCalled();
  });
});

describe("hostile addresses", () => {
  it("answer the screen and the export with a 4xx or the page, never a failure", async () => {
    const services = analyticsServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const queries = [
      "range=%00",
      "range=today%0A",
      "from=9999-99-99&to=9999-99-99",
      `from=${"2".repeat(5000)}&to=x`,
      "from=2026-01-01&from=2027-01-01&to=2026-01-02",
      "list=__proto__&page=1",
      "list=constructor&page=2",
      "list=path&page=1e1",
      "list=path&page=-1",
      "list=path&page=%E2%80%8B2",
      "from=0001-01-01&to=0001-01-02",
      "range=12m&list=not_found&page=10",
    ];
    for (const query of queries) {
      for (const [handler, path] of [
        [loader, "/admin/analytics"],
        [exportLoader, "/admin/analytics/export.csv"],
      ] as const) {
        const outcome = await call(handler, `http://blog.test${path}?${query}`, context);
        expect([200, 400, 404], `${path}?${query}`).toContain(outcome.status);
      }
    }
  });
});

describe("the Analytics CSV export", () => {
  async function download(query: string) {
    const services = analyticsServices();
    const { context } = createRouteTestContext(services, EDITOR);
    const outcome = await call(exportLoader, `http://blog.test/admin/analytics/export.csv${query}`, context);
    return { services, outcome };
  }

  it("exports today's paths when no range is given, as a CSV download", async () => {
    const { services } = await download("");
    expect(services.analyticsReports.exportCsv).toHaveBeenCalledWith({ from: "2026-03-15", to: "2026-03-15" });
    const response = (await exportLoader(
      routeArgs(
        new Request("http://blog.test/admin/analytics/export.csv?from=2026-03-01&to=2026-03-15"),
        createRouteTestContext(analyticsServices(), TEST_ADMIN).context,
      ) as never,
    )) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="analytics-2026-03-01-to-2026-03-15.csv"',
    );
    expect(await response.text()).toBe("path,views,visitors\r\n/blog/a,5,2\r\n");
  });

  it("refuses a range it cannot read with 400 and the reason", async () => {
    for (const query of ["?from=2026-03-01", "?from=yesterday&to=today", "?from=2026-03-02&to=2026-03-01"]) {
      const { services, outcome } = await download(query);
      expect(outcome.status, query).toBe(400);
      expect(services.analyticsReports.exportCsv).not.toHaveBeenCalled();
    }
  });
});

describe("a post's readers in its editor", () => {
  it("shows a published post's views and visitors of the last 30 days, counted at its address; a draft has none", async () => {
    const POST_ID = "AAAAAAAAAAAAAAAA";
    for (const published of [true, false]) {
      const services = {
        analyticsReports: { postViews: vi.fn(() => Promise.resolve({ views: 12, visitors: 5 })) },
        fediverse: { postCounts: vi.fn(() => Promise.resolve({ likes: 0, boosts: 0, replies: 0 })) },
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
      };
      const { context } = createRouteTestContext(services, EDITOR);
      const page = await settle(() =>
        postEditLoader(
          routeArgs(new Request(`http://blog.test/admin/posts/edit/${POST_ID}`), context, { id: POST_ID }) as never,
        ),
      );
      expect(page.status).toBe(200);
      expect((page.body as { views?: unknown }).views, String(published)).toEqual(
        published ? { views: 12, visitors: 5 } : undefined,
      );
      if (published) expect(services.analyticsReports.postViews).toHaveBeenCalledWith("/blog/a-post", "UTC");
      else expect(services.analyticsReports.postViews).not.toHaveBeenCalled();
    }
  });
});

describe("the analytics settings", () => {
  function settingsServices() {
    return {
      analytics: {
        settings: vi.fn(() => Promise.resolve({ enabled: true, retentionDays: 30 })),
        saveSettings: vi.fn(() => Promise.resolve()),
      },
    };
  }
  const save = (context: unknown, fields: Record<string, string>) =>
    settle(() =>
      settingsAction(
        routeArgs(
          postForm("http://blog.test/admin/analytics/settings", fields),
          context as Parameters<typeof routeArgs>[1],
        ) as never,
      ),
    );

  it("shows and saves whether readers are counted and how long single views are kept", async () => {
    const services = settingsServices();
    const { context } = createRouteTestContext(services, EDITOR);
    const page = await call(settingsLoader, "http://blog.test/admin/analytics/settings?saved", context);
    expect(page).toMatchObject({ status: 200, body: { settings: { enabled: true, retentionDays: 30 }, saved: true } });

    const saved = await save(context, { retentionDays: " 90 " });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe("/admin/analytics/settings?saved");
    expect(services.analytics.saveSettings).toHaveBeenCalledWith({ enabled: false, retentionDays: 90 });
  });

  it("refuses a retention that is not a whole number of days from 1 to 3,650, and a visitor not signed in", async () => {
    const services = settingsServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    for (const retentionDays of ["0", "3651", "1.5", "a month", ""]) {
      const refused = await save(context, { enabled: "on", retentionDays });
      expect(refused, retentionDays).toMatchObject({
        status: 400,
        body: { errors: { retentionDays: "Enter a whole number of days from 1 to 3,650" } },
      });
    }
    const signedOut = createRouteTestContext(services, null).context;
    expect((await save(signedOut, { enabled: "on", retentionDays: "30" })).status).toBe(302);
    expect((await call(settingsLoader, "http://blog.test/admin/analytics/settings", signedOut)).status).toBe(302);
    expect(services.analytics.saveSettings).not.toHaveBeenCalled();
  });
});
