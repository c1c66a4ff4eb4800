// Feeds (RSS, Atom, JSON Feed) and sitemaps: what the resource routes under app/routes/resources/ serve.
export { cacheableResponse, feedContentType, renderFeed } from "./feeds.ts";
export {
  countPageSitemaps,
  type ListPageAddresses,
  type PageAddress,
  pageSitemapNumber,
  postSitemapCount,
  readPageSitemap,
  renderPagesSitemap,
  renderSitemapIndex,
  SITEMAP_MAX_URLS,
  streamPostsSitemap,
} from "./sitemap.ts";
