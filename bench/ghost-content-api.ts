// Ghost's Content API at size: `browse posts` (the call a headless front end makes for every list
// page), first page, a deep page and filtered by a tag, then the tag and author lists, uncached,
// through the service the HTTP mount calls. `node bench/ghost-content-api.ts`.
// BENCH_POSTS posts (default 100,000) on each scratch database; prints p50 and p95 per call.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import type { DatabaseHandle } from "../server/kernel/db/connect.ts";
import { createServices } from "../server/composition.ts";
import { generateBenchData } from "./data.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const ROUNDS = 50;
/** One of bench/data.ts's tags, carried by about one post in five. */
const BENCH_TAG = "typescript";

async function percentiles(label: string, run: () => Promise<unknown>): Promise<void> {
  await run();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!.toFixed(2);
  console.log(`  ${label.padEnd(48)} p50 ${at(0.5).padStart(7)} ms   p95 ${at(0.95).padStart(7)} ms`);
}

async function measure(handle: DatabaseHandle): Promise<void> {
  console.log(`\n${handle.dialect}: ${POSTS} published posts`);
  await generateBenchData(handle.db, { posts: POSTS });
  // PostgreSQL plans from statistics: freshly filled, it believes the tables nearly empty and
  // hash-joins whole tag lists (800 ms a tag page) where, analysed, it seeks (0.2 ms a tag).
  if (handle.dialect === "postgres") await sql`analyze`.execute(handle.db);
  const { apps } = createServices({ db: handle.db, dialect: handle.dialect, commentIpSalt: "bench" });
  await percentiles("browse posts (limit 15, page 1)", () => apps.content.browsePosts({}));
  await percentiles("browse posts (include=tags,authors, page 1000)", () =>
    apps.content.browsePosts({ include: "tags,authors", page: "1000" }),
  );
  await percentiles("browse posts (filter=tag:development, a category)", () =>
    apps.content.browsePosts({ filter: "tag:development" }),
  );
  await percentiles(`browse posts (filter=tag:${BENCH_TAG}, a tag)`, () =>
    apps.content.browsePosts({ filter: `tag:${BENCH_TAG}` }),
  );
  await percentiles("browse tags (page 1)", () => apps.content.browseTags({}));
  await percentiles("browse tags (include=count.posts, page 2)", () =>
    apps.content.browseTags({ include: "count.posts", page: "2" }),
  );
  await percentiles("browse authors (include=count.posts)", () =>
    apps.content.browseAuthors({ include: "count.posts" }),
  );
  await percentiles("read post by slug", async () => {
    const [first] = (await apps.content.browsePosts({ fields: "slug", limit: "1" })).posts;
    return apps.content.readPost({ slug: String(first?.slug) }, {});
  });
}

await onScratchDatabases("ghost-content-api", measure);
