import { RouterContextProvider } from "react-router";
import { vi } from "vitest";
import { appContext } from "~/context";
import type { Services } from "../../../server/services/index.ts";

type ServiceOverrides = { [Name in keyof Services]?: Partial<Services[Name]> };

/** The arguments React Router hands a loader or action for one request. */
export function routeArgs<Params extends Record<string, string>>(
  path: string,
  params: Params,
  context: RouterContextProvider,
  init?: RequestInit,
) {
  const request = new Request(`http://localhost${path}`, init);
  return { request, url: new URL(request.url), params, pattern: "", context };
}

/** A request context whose services are only the fakes a test provides. */
export function contextWith(services: ServiceOverrides, clientAddress = "203.0.113.9") {
  const context = new RouterContextProvider();
  context.set(appContext, {
    services: services as Services,
    site: {
      siteUrl: "http://localhost",
      aboutUrl: "https://about.example.org",
      sourceUrl: "https://source.example.org",
    },
    logger: { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as never,
    sessionCookie: {} as never,
    cspNonce: "nonce",
    clientAddress,
  });
  return context;
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
