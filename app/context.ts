import { createContext, type Cookie } from "react-router";
import type { Logger } from "../server/logger.ts";
import type { SessionUser } from "../server/services/auth.ts";
import type { Services } from "../server/services/index.ts";

export interface SiteSettings {
  siteUrl: string;
  aboutUrl: string;
  sourceUrl: string;
}

/** What the server hands every loader and action, per request (see server/app.ts). */
export interface AppContext {
  services: Services;
  site: SiteSettings;
  logger: Logger;
  sessionCookie: Cookie;
  cspNonce: string;
  clientAddress: string;
}

export const appContext = createContext<AppContext>();

/** Set by the root middleware once per request: the signed-in admin, if any. */
export const userContext = createContext<SessionUser | null>(null);
