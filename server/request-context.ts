import { createContext } from "react-router";
import type { SiteSettings } from "#domain/site-settings.ts";
import type { FederationHandle } from "./fediverse/index.ts";
import type { Logger } from "./kernel/logger.ts";
import type { ContentTag } from "./kernel/content-changes.ts";
import type { SessionUser } from "./accounts/index.ts";
import type { Services } from "./composition.ts";
import type { DeviceCookie, PendingCommentsCookie, SessionCookie, TwoFactorCookie } from "./kernel/session-cookie.ts";

/** What the server hands every loader and action, per request (see server/http.ts). */
export interface AppContext {
  services: Services;
  /** What the owner saved in Settings (or the defaults), and the address the site answers on. */
  site: SiteSettings & { siteUrl: string };
  logger: Logger;
  sessionCookie: SessionCookie;
  deviceCookie: DeviceCookie;
  twoFactorCookie: TwoFactorCookie;
  pendingCommentsCookie: PendingCommentsCookie;
  /** Marks this page cacheable for anonymous readers, tagged by what it shows (server/kernel/page-cache.ts). */
  tagPage: (tags: readonly (ContentTag | "static")[]) => void;
  clientAddress: string;
  /** The blog's actor: answers to followers awaiting approval, and the handle to follow it by. */
  federation: FederationHandle;
  /**
   * Keeps an unexpected failure's cause for the request's one log line (server/http.ts),
   * so a 5xx is logged once, with its cause, however the route answered it.
   */
  recordFailure: (error: unknown) => void;
}

export const appContext = createContext<AppContext>();

/** Set by the root middleware once per request: the signed-in admin, if any. */
export const userContext = createContext<SessionUser | null>(null);
