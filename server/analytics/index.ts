// The analytics capability's public face (README.md): all that other capabilities, the composition root, app/ and cli/ import from it.
export { openCountryLookup } from "./geoip.ts";
export { countFeedFetches, createBeaconRoute } from "./http.ts";
export { createAnalyticsReports } from "./reports.ts";
export { type Analytics, type AnalyticsTuning, createAnalytics } from "./service.ts";
