// Sitemaps at scale: the index and every posts sitemap for BENCH_SITEMAP_POSTS published posts
// (default 100,000), rendered through the same service and stream the route uses.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { postSitemapCount, renderSitemapIndex, SITEMAP_MAX_URLS, streamPostsSitemap } from "../server/feeds/index.ts";
import type { DatabaseHandle } from "../server/kernel/db/connect.ts";
import { createServices } from "../server/composition.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const POSTS = Number(process.env.BENCH_SITEMAP_POSTS ?? 100_000);
const BATCH = 1000;
const SITE = "https://blog.example.com";

async function seed(handle: DatabaseHandle): Promise<void> {
  const start = Date.parse("2020-01-01T00:00:00Z");
  for (let first = 0; first < POSTS; first += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, POSTS - first) }, (_, offset) => {
      const index = first + offset;
      const at = new Date(start + index * 60_000).toISOString();
      return {
        id: `bench${String(index).padStart(11, "0")}`,
        slug: `post-number-${index}`,
        title: `Post number ${index}`,
        format: "html",
        content: "<p>Body</p>",
        content_html: "<p>Body</p>",
        reading_minutes: 1,
        excerpt: "Excerpt",
        author: "Bench",
        cover_image: "https://example.com/c.jpg",
        category: "Development",
        published: 1,
        created_at: at,
        updated_at: at,
      };
    });
    await handle.db.insertInto("posts").values(rows).execute();
  }
}

async function measure(handle: DatabaseHandle): Promise<void> {
  await seed(handle);
  // Statistics as a live database has them (PostgreSQL's autovacuum gathers them after bulk writes).
  await sql`analyze`.execute(handle.db);
  const services = createServices({ db: handle.db, dialect: handle.dialect, commentIpSalt: "bench" });
  let started = performance.now();
  const count = await services.posts.countPublishedPosts();
  renderSitemapIndex(SITE, count);
  console.log(`${handle.dialect}: ${count} published posts`);
  console.log(`  /sitemap.xml            ${(performance.now() - started).toFixed(1).padStart(8)} ms`);
  for (let page = 1; page <= postSitemapCount(count); page += 1) {
    started = performance.now();
    const addresses = services.posts.streamPublishedPostAddresses((page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
    const reader = streamPostsSitemap(SITE, addresses).getReader();
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
    const label = `/sitemaps/posts-${page}.xml`.padEnd(22);
    console.log(
      `  ${label} ${(performance.now() - started).toFixed(1).padStart(8)} ms, ${(bytes / 1e6).toFixed(1)} MB`,
    );
  }
}

await onScratchDatabases("bench-sitemap", measure);
