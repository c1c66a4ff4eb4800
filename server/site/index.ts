// The site capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { createNavigationService, type SiteNavigationLinks } from "./navigation.ts";
export { findSiteSettings, findSiteSettingsVersion, saveSiteSettings } from "./repositories/site-settings.ts";
export { createSiteSettingsService, defaultSiteSettings } from "./settings.ts";
