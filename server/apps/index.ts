// The apps capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
import { GHOST_ADMIN_API_PATH, GHOST_CONTENT_API_PATH } from "./ghost-http.ts";

export { createGhostAdmin, type GhostAdmin } from "./ghost-admin.ts";
export { createGhostContent, type GhostContent } from "./ghost-content.ts";
export { createGhostApiRoutes } from "./ghost-http.ts";
export { GhostValidationError } from "./ghost-posts.ts";
export { type AppCaller, type AppsService, createAppsService, type KeyHolder } from "./service.ts";
export { GHOST_ADMIN_API_PATH, GHOST_CONTENT_API_PATH };

/** The paths Express answers for apps, ahead of the site's own method and form checks. */
export const GHOST_API_PATHS = [GHOST_ADMIN_API_PATH, GHOST_CONTENT_API_PATH] as const;
