import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { DomainError } from "#domain/errors.ts";
import { ADD_CONSENT_MESSAGE, SUBSCRIBER_IMPORT_RUNNING_MESSAGE } from "#domain/subscribers.ts";
import { takeFlash } from "~/lib/flash.server";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import { loader } from "./subscribers";
import { action as addAction } from "./subscribers-add";
import { action as importAction } from "./subscribers-import";
import { action as removeAction } from "./subscribers-remove";

const uploads: [string, { consent: boolean }][] = [];

function subscriberServices() {
  uploads.length = 0;
  return {
    subscribers: {
      listPage: vi.fn(() =>
        Promise.resolve({
          counts: { pending: 1, active: 2, unsubscribed: 0, bounced: 0 },
          page: { items: [], next: { createdAt: "2025-01-02T03:04:05.000Z", id: "sub_9" } },
        }),
      ),
      add: vi.fn(() => Promise.resolve()),
      remove: vi.fn(() => Promise.resolve()),
      // The upload is streamed to a file, which the import removes once it ends: what it held is read here.
      startImport: vi.fn(
        (
          source: string | { path: string },
          options: { consent: boolean; startedBy: string; afterwards?: () => Promise<void> },
        ) => {
          uploads.push([
            typeof source === "string" ? source : readFileSync(source.path, "utf8"),
            { consent: options.consent },
          ]);
          const ended = options.afterwards?.() ?? Promise.resolve();
          return Promise.resolve({ finished: ended.then(() => ({ state: "finished" })) });
        },
      ),
      importStatus: vi.fn(() => Promise.resolve({ state: "running", rowsRead: 1500, startedBy: "ada", startedAt: "" })),
    },
  };
}

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs);

async function flashOf(response: { headers: Headers }, path: string) {
  const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await takeFlash(new Request(`http://blog.test${path}`, { headers: { Cookie: cookie } }))).message;
}

describe("the Subscribers screen", () => {
  it("lists a state's page after a cursor, and answers 404 to a state or cursor that names nothing", async () => {
    const services = subscriberServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const cursor = "2025-01-01T00:00:00.000Z,abc_DEF-1";
    const page = await settle(() =>
      call(
        loader,
        new Request(`http://blog.test/admin/subscribers?state=pending&q=%20ada%20&after=${cursor}`),
        context,
      ),
    );
    expect(page).toMatchObject({
      status: 200,
      body: {
        state: "pending",
        q: "ada",
        after: cursor,
        next: "2025-01-02T03:04:05.000Z,sub_9",
        importStatus: { state: "running", rowsRead: 1500 },
      },
    });
    expect(services.subscribers.listPage).toHaveBeenCalledWith({
      state: "pending",
      search: "ada",
      after: { createdAt: "2025-01-01T00:00:00.000Z", id: "abc_DEF-1" },
    });
    for (const query of ["state=everyone", "after=yesterday", "after=2025-01-01T00:00:00.000Z,a%20b"]) {
      const outcome = await settle(() =>
        call(loader, new Request(`http://blog.test/admin/subscribers?${query}`), context),
      );
      expect(outcome, query).toMatchObject({ status: 404, body: { message: "Page not found" } });
    }
  });

  it("adds an address only with the consent box ticked, and says why not", async () => {
    const services = subscriberServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const refused = await settle(() =>
      call(addAction, postForm("http://blog.test/admin/subscribers/add", { email: "friend@example.com" }), context),
    );
    expect(refused).toMatchObject({ status: 400, body: { errors: { consent: ADD_CONSENT_MESSAGE } } });
    expect(services.subscribers.add).not.toHaveBeenCalled();

    const added = await settle(() =>
      call(
        addAction,
        postForm("http://blog.test/admin/subscribers/add", { email: " Friend@Example.COM ", consent: "yes" }),
        context,
      ),
    );
    expect(added.headers.get("Location")).toBe("/admin/subscribers");
    expect(await flashOf(added, "/admin/subscribers")).toBe("Subscriber added.");
    expect(services.subscribers.add).toHaveBeenCalledWith({ email: "Friend@example.com", consent: "yes" });

    services.subscribers.add.mockRejectedValueOnce(
      new DomainError("SUBSCRIBER_EXISTS", "This address is on the list already (unsubscribed)."),
    );
    const exists = await settle(() =>
      call(
        addAction,
        postForm("http://blog.test/admin/subscribers/add", { email: "friend@example.com", consent: "yes" }),
        context,
      ),
    );
    expect(exists).toMatchObject({
      status: 409,
      body: { errors: { email: "This address is on the list already (unsubscribed)." } },
    });
  });

  it("removes for good and goes back to the list it was on, never elsewhere", async () => {
    const services = subscriberServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    for (const [back, location] of [
      ["/admin/subscribers?state=pending&q=ada", "/admin/subscribers?state=pending&q=ada"],
      ["https://evil.example/", "/admin/subscribers"],
      ["/admin/subscribersevil", "/admin/subscribers"],
    ] as const) {
      const removed = await settle(() =>
        call(removeAction, postForm("http://blog.test/admin/subscribers/remove", { id: "sub_1", back }), context),
      );
      expect(removed.headers.get("Location"), back).toBe(location);
      expect(await flashOf(removed, location)).toBe("Subscriber removed for good.");
    }
    expect(services.subscribers.remove).toHaveBeenCalledWith("sub_1");
  });

  it("starts an uploaded CSV's import and goes back to the list; refuses one without a file, or while one runs", async () => {
    const services = subscriberServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const upload = (fields: Record<string, string | File>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      return new Request("http://blog.test/admin/subscribers/import", { method: "POST", body });
    };
    const imported = await settle(() =>
      call(importAction, upload({ file: new File(["email\na@example.com\n"], "list.csv") }), context),
    );
    expect(imported.status).toBe(302);
    expect(imported.headers.get("Location")).toBe("/admin/subscribers");
    expect(uploads).toEqual([["email\na@example.com\n", { consent: false }]]);
    expect(services.subscribers.startImport).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ consent: false, startedBy: TEST_ADMIN.username }),
    );

    const empty = await settle(() => call(importAction, upload({ consent: "yes" }), context));
    expect(empty).toMatchObject({ status: 400, body: { errors: { file: "Choose a CSV file to import" } } });

    services.subscribers.startImport.mockRejectedValueOnce(
      new DomainError("IMPORT_REFUSED", "The CSV has no email column."),
    );
    const refused = await settle(() =>
      call(importAction, upload({ file: new File(["name\n"], "list.csv"), consent: "yes" }), context),
    );
    expect(refused).toMatchObject({ status: 400, body: { errors: { file: "The CSV has no email column." } } });

    services.subscribers.startImport.mockRejectedValueOnce(
      new DomainError("IMPORT_RUNNING", SUBSCRIBER_IMPORT_RUNNING_MESSAGE),
    );
    const running = await settle(() =>
      call(importAction, upload({ file: new File(["email\nb@example.com\n"], "list.csv") }), context),
    );
    expect(running).toMatchObject({ status: 409, body: { errors: { file: SUBSCRIBER_IMPORT_RUNNING_MESSAGE } } });
  });
});
