import { RouterContextProvider } from "react-router";
import { vi } from "vitest";
import { appContext, userContext } from "#server/request-context.ts";
import { isDomainError } from "#domain/errors.ts";
import type { Logger } from "../../server/kernel/logger.ts";
import type { SessionUser } from "../../server/accounts/auth.ts";
import type { Services } from "../../server/composition.ts";
import { defaultSiteSettings } from "../../server/site/settings.ts";
import {
  createDeviceCookie,
  createPendingCommentsCookie,
  createSessionCookie,
  createTwoFactorCookie,
} from "../../server/kernel/session-cookie.ts";

export const TEST_ADMIN: SessionUser = {
  id: "admin-1",
  email: "ada@example.com",
  username: "ada",
  role: "owner",
  writingView: "markdown",
  isAdmin: true,
};

/** A request context for calling a route's loader or action directly, with stand-in services. */
export function createRouteTestContext(
  services: Partial<Record<keyof Services, object>>,
  user: SessionUser | null = null,
  clientAddress = "127.0.0.1",
) {
  const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const context = new RouterContextProvider();
  context.set(appContext, {
    services: services as unknown as Services,
    site: {
      ...defaultSiteSettings({ aboutUrl: "http://blog.test/about", sourceUrl: "http://blog.test/src" }),
      siteUrl: "http://blog.test",
    },
    logger: logger as unknown as Logger,
    sessionCookie: createSessionCookie({ secret: "test secret", secure: false }),
    deviceCookie: createDeviceCookie({ secret: "test secret", secure: false }),
    twoFactorCookie: createTwoFactorCookie({ secret: "test secret", secure: false }),
    pendingCommentsCookie: createPendingCommentsCookie({ secret: "test secret", secure: false }),
    tagPage: () => {},
    clientAddress,
    federation: { acceptFollower: async () => {}, rejectFollower: async () => {}, handleUrl: () => "@blog@blog.test" },
    // Stands in for the server's one log line per failed request (server/http.ts).
    recordFailure: (error: unknown) =>
      logger.error({ err: error, code: isDomainError(error) ? error.code : undefined }, "request failed"),
  });
  context.set(userContext, user);
  return { context, logger };
}

export function postForm(url: string, fields: Record<string, string | string[]>): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return new Request(url, { method: "POST", body });
}

/** The arguments React Router passes a route's loader or action, for calling one directly. */
export function routeArgs<Params extends Record<string, string> = Record<string, never>>(
  request: Request,
  context: RouterContextProvider,
  params: Params = {} as Params,
) {
  return { request, context, params, url: new URL(request.url), pattern: new URL(request.url).pathname };
}

interface DataWithResponseInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

// react-router's data() result; its class is not exported at runtime, so it is recognised by its tag.
function isDataWithResponseInit(value: unknown): value is DataWithResponseInit {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** What a loader or action threw or returned with data(): its status and body, for assertions. */
export async function settle(run: () => unknown): Promise<{ status: number; body: unknown; headers: Headers }> {
  let outcome: unknown;
  try {
    outcome = await run();
  } catch (thrown) {
    outcome = thrown;
  }
  if (isDataWithResponseInit(outcome)) {
    return { status: outcome.init?.status ?? 200, body: outcome.data, headers: new Headers(outcome.init?.headers) };
  }
  if (outcome instanceof Response) return { status: outcome.status, body: null, headers: outcome.headers };
  if (outcome instanceof Error) throw outcome;
  return { status: 200, body: outcome, headers: new Headers() };
}
