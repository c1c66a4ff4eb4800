// The micropub capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
import type { AppsService } from "../apps/index.ts";
import type { Authenticate } from "./http.ts";
import type { IndieAuthService } from "./indieauth.ts";
import { callerFromAppKey } from "./service.ts";

export { createMicropubRoutes } from "./http.ts";
export { createIndieAuthRoutes } from "./indieauth-http.ts";
export {
  type AuthorizationRequest,
  createIndieAuthService,
  IndieAuthError,
  type IndieAuthService,
} from "./indieauth.ts";
export { createMicropubService, type MicropubService } from "./service.ts";

/** A bearer token is an IndieAuth token (`ia_…`) or an app key's token (Settings → Apps). */
export function createMicropubAuthenticator(apps: AppsService, indieAuth: IndieAuthService): Authenticate {
  return async (token, address) => {
    if (token && indieAuth.isIndieAuthToken(token)) return indieAuth.authenticate(token, address);
    return callerFromAppKey(await apps.authenticateToken(token, address));
  };
}
