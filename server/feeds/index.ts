// Feeds (RSS, Atom, JSON Feed) and sitemaps: the service the resource routes call, and what
// the sitemap benchmark and tests measure directly.
export { cacheableResponse } from "./feeds.ts";
export { createFeedService } from "./service.ts";
export {
  countPageSitemaps,
  postSitemapCount,
  readPageSitemap,
  renderSitemapIndex,
  SITEMAP_MAX_URLS,
  streamPostsSitemap,
} from "./sitemap.ts";
