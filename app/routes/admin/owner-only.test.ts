import { describe, expect, it, vi } from "vitest";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import type { SessionUser } from "../../../server/accounts/index.ts";
import { takeFlash } from "~/lib/flash.server";
import { loader as exportLoader } from "../resources/export";
import { loader as activityLoader } from "./activity";
import { action as settingsAction, loader as settingsLoader } from "./settings";
import { action as settingsImagesAction } from "./settings-images";
import { loader as emailSettingsLoader } from "./email-settings";
import { action as emailSaveAction } from "./email-settings-save";
import { action as emailTestAction } from "./email-settings-test";
import { loader as subscribersLoader } from "./subscribers";
import { action as addSubscriberAction } from "./subscribers-add";
import { loader as subscribersExportLoader } from "./subscribers-export";
import { action as importSubscribersAction } from "./subscribers-import";
import { action as removeSubscriberAction } from "./subscribers-remove";
import { loader as toolsLoader } from "./tools";
import { loader as usersLoader } from "./users";
import { action as inviteAction } from "./users-invite";
import { action as manageAction } from "./users-manage";

const TEST_EDITOR: SessionUser = {
  ...TEST_ADMIN,
  id: "editor-1",
  email: "eddie@example.com",
  username: "eddie",
  role: "editor",
};

const validSettings = {
  title: "Taken over",
  description: "",
  aboutUrl: "https://evil.example/",
  sourceUrl: "https://evil.example/",
  postsPerPage: "5",
  timeZone: "UTC",
  footerText: "",
};

/** Every service an owner-only screen could reach, each a spy that must stay untouched for anyone else. */
function ownerOnlyServices() {
  return {
    siteSettings: { update: vi.fn(), current: vi.fn(), saveImage: vi.fn(), removeImage: vi.fn() },
    users: {
      listPage: vi.fn(() => Promise.resolve({ accounts: [], invitations: [], hasNextPage: false })),
      invite: vi.fn(),
      revokeInvitation: vi.fn(),
      transferOwnership: vi.fn(),
      removeAccount: vi.fn(),
    },
    audit: { listPage: vi.fn(() => Promise.resolve({ entries: [], next: undefined })) },
    accountEmails: { sendInvitation: vi.fn(() => Promise.resolve(false)) },
    email: { describe: vi.fn(), save: vi.fn(), sendTest: vi.fn(), isOn: vi.fn(() => Promise.resolve(false)) },
    portability: { exportBlog: vi.fn() },
    subscribers: {
      listPage: vi.fn(() =>
        Promise.resolve({
          counts: { pending: 0, active: 0, unsubscribed: 0, bounced: 0 },
          page: { items: [], next: undefined },
        }),
      ),
      add: vi.fn(),
      remove: vi.fn(),
      startImport: vi.fn(),
      importStatus: vi.fn(),
      exportCsv: vi.fn(),
    },
  };
}

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs);

const pages: [string, (args: AnyArgs) => unknown][] = [
  ["/admin/settings", settingsLoader],
  ["/admin/users", usersLoader],
  ["/admin/settings/activity", activityLoader],
  ["/admin/settings/email", emailSettingsLoader],
  ["/admin/tools", toolsLoader],
  ["/admin/tools/export", exportLoader],
  ["/admin/subscribers", subscribersLoader],
  ["/admin/subscribers/export.csv", subscribersExportLoader],
];

const posts: [string, (args: AnyArgs) => unknown, Record<string, string>][] = [
  ["/admin/settings", settingsAction, validSettings],
  ["/admin/settings/images", settingsImagesAction, { kind: "logo", intent: "remove" }],
  ["/admin/settings/email/save", emailSaveAction, { host: "smtp.example.com", port: "587", security: "starttls" }],
  ["/admin/settings/email/test", emailTestAction, { to: "" }],
  ["/admin/users/invite", inviteAction, { email: "friend@example.com" }],
  ["/admin/users/manage", manageAction, { intent: "transfer", id: "editor-1" }],
  ["/admin/users/manage", manageAction, { intent: "remove", id: "admin-1" }],
  ["/admin/users/manage", manageAction, { intent: "revoke", id: "invitation-1" }],
  ["/admin/subscribers/add", addSubscriberAction, { email: "friend@example.com", consent: "yes" }],
  ["/admin/subscribers/remove", removeSubscriberAction, { id: "subscriber-1" }],
  ["/admin/subscribers/import", importSubscribersAction, { consent: "yes" }],
];

describe("owner-only screens", () => {
  it.each(pages)("answer an editor's visit to %s with 403 and read nothing", async (path, loader) => {
    const services = ownerOnlyServices();
    const { context } = createRouteTestContext(services, TEST_EDITOR);
    const outcome = await settle(() => call(loader, new Request(`http://blog.test${path}`), context));
    expect(outcome).toMatchObject({ status: 403, body: { message: "Only the owner can open this page" } });
    expect(services.users.listPage).not.toHaveBeenCalled();
    expect(services.audit.listPage).not.toHaveBeenCalled();
    expect(services.portability.exportBlog).not.toHaveBeenCalled();
    for (const method of Object.values(services.subscribers)) expect(method).not.toHaveBeenCalled();
  });

  it.each(posts)(
    "answer an editor's forged post to %s (%o) with 403 and change nothing",
    async (path, action, form) => {
      const services = ownerOnlyServices();
      const { context } = createRouteTestContext(services, TEST_EDITOR);
      const outcome = await settle(() => call(action, postForm(`http://blog.test${path}`, form), context));
      expect(outcome.status).toBe(403);
      for (const service of [services.siteSettings, services.users, services.subscribers]) {
        for (const method of Object.values(service)) expect(method).not.toHaveBeenCalled();
      }
    },
  );

  it("keep the mail server from an editor: nothing is read, saved or sent", async () => {
    const services = ownerOnlyServices();
    const { context } = createRouteTestContext(services, TEST_EDITOR);
    await settle(() => call(emailSettingsLoader, new Request("http://blog.test/admin/settings/email"), context));
    for (const [action, form] of [
      [emailSaveAction, { host: "smtp.example.com", port: "587", security: "starttls", fromAddress: "a@b.example" }],
      [emailTestAction, { to: "" }],
    ] as const) {
      const outcome = await settle(() =>
        call(action, postForm("http://blog.test/admin/settings/email", form), context),
      );
      expect(outcome.status).toBe(403);
    }
    for (const method of Object.values(services.email)) expect(method).not.toHaveBeenCalled();
  });

  it("let the owner in: the same requests reach the services", async () => {
    const services = ownerOnlyServices();
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    await call(usersLoader, new Request("http://blog.test/admin/users"), context);
    await call(activityLoader, new Request("http://blog.test/admin/settings/activity"), context);
    await call(settingsAction, postForm("http://blog.test/admin/settings", validSettings), context);
    expect(services.users.listPage).toHaveBeenCalledWith(TEST_ADMIN, 1);
    expect(services.audit.listPage).toHaveBeenCalledOnce();
    expect(services.siteSettings.update).toHaveBeenCalledWith(
      expect.objectContaining({ title: "Taken over", postsPerPage: 5 }),
      expect.objectContaining({ id: TEST_ADMIN.id }),
    );
  });

  it("show the owner a new invitation's link even when its email cannot be queued", async () => {
    const services = ownerOnlyServices();
    services.users.invite.mockResolvedValue({ token: "t0ken", invitation: { email: "friend@example.com" } });
    services.accountEmails.sendInvitation.mockRejectedValue(new Error("the database went away"));
    const { context, logger } = createRouteTestContext(services, TEST_ADMIN);
    const invited = await settle(() =>
      call(inviteAction, postForm("http://blog.test/admin/users/invite", { email: "friend@example.com" }), context),
    );
    expect(invited).toMatchObject({
      status: 200,
      body: { created: { email: "friend@example.com", link: "http://blog.test/invite?token=t0ken", emailed: false } },
    });
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it("let the owner manage users: a change lands back with its notice, an invitation shows its link", async () => {
    const services = ownerOnlyServices();
    services.users.invite.mockResolvedValue({ token: "t0ken", invitation: { email: "friend@example.com" } });
    const { context } = createRouteTestContext(services, TEST_ADMIN);
    const invited = await settle(() =>
      call(inviteAction, postForm("http://blog.test/admin/users/invite", { email: " friend@example.com " }), context),
    );
    expect(invited).toMatchObject({
      status: 200,
      body: {
        values: { email: "" },
        created: { email: "friend@example.com", link: "http://blog.test/invite?token=t0ken" },
      },
    });
    expect(services.users.invite).toHaveBeenCalledWith(TEST_ADMIN, "friend@example.com");

    for (const [intent, location, notice] of [
      ["revoke", "/admin/users", "Invitation revoked."],
      ["remove", "/admin/users", "Account removed."],
      // Whoever gave ownership away may no longer open Users.
      ["transfer", "/admin", "Ownership transferred."],
    ] as const) {
      const done = await settle(() =>
        call(manageAction, postForm("http://blog.test/admin/users/manage", { intent, id: "editor-1" }), context),
      );
      expect(done.headers.get("Location"), intent).toBe(location);
      const cookie = done.headers.get("Set-Cookie")!.split(";")[0]!;
      const flash = await takeFlash(new Request(`http://blog.test${location}`, { headers: { Cookie: cookie } }));
      expect(flash.message, intent).toBe(notice);
    }
    expect(services.users.revokeInvitation).toHaveBeenCalledWith(TEST_ADMIN, "editor-1");
  });

  it("send someone signed out to sign in", async () => {
    const services = ownerOnlyServices();
    const { context } = createRouteTestContext(services, null);
    for (const [path, loader] of pages) {
      const outcome = await settle(() => call(loader, new Request(`http://blog.test${path}`), context));
      expect(outcome.status, path).toBe(302);
      expect(outcome.headers.get("Location"), path).toMatch(/^\/login\?redirectTo=/);
    }
  });
});
