// The query plans behind every public page, on the database DATABASE_URL names (fill it first:
// `npm run blog -- bench-data --posts 100000`). Each statement the post service runs for a page
// is captured as it executes, then explained: EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on
// PostgreSQL. docs/decisions/0005 keeps the output.
import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode } from "kysely";
import { parseConfig } from "../server/kernel/config.ts";
import { openDatabase } from "../server/kernel/db/connect.ts";
import { createServices } from "../server/composition.ts";
import { COMMON_WORD, RARE_WORD } from "./data.ts";

const config = parseConfig({ NODE_ENV: "production", ...process.env });
const handle = await openDatabase(config.database);
const captured: RootOperationNode[] = [];
const capture: KyselyPlugin = {
  transformQuery: ({ node }) => {
    captured.push(node);
    return node;
  },
  transformResult: async ({ result }) => result,
};
const db = handle.db.withPlugin(capture);
const services = createServices({ db, dialect: handle.dialect, commentIpSalt: "explain" });

const newest = await services.posts.listPublishedPosts(undefined, 1);
const pages: [string, () => Promise<unknown>][] = [
  ["every uncached page: next scheduled post", () => services.posts.nextScheduledPublishAt()],
  ["/", () => services.posts.getHomePage()],
  ["/blog", () => services.posts.listPublishedPosts(undefined, 1)],
  ["/blog?page=2000", () => services.posts.listPublishedPosts(undefined, 2000)],
  ["/category/design", () => services.posts.listCategoryPosts("Design", 1)],
  ["/categories", () => services.posts.summariseCategories()],
  ["/sitemaps/pages.xml", () => services.posts.listCategoryUpdates()],
  [`/blog/${newest.items[0]!.slug}`, () => services.posts.getPublicPost(newest.items[0]!.slug)],
  [`/search?q=${RARE_WORD}`, () => services.posts.listPublishedPosts(RARE_WORD, 1)],
  [`/search?q=${COMMON_WORD}`, () => services.posts.listPublishedPosts(COMMON_WORD, 1)],
];

async function explain(query: CompiledQuery): Promise<string[]> {
  if (handle.dialect === "sqlite") {
    const { rows } = await handle.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.map((row) => row.detail);
  }
  // The search runs with sequential scans off (server/posts/repositories/posts-search.ts); so is its plan here.
  return handle.db.transaction().execute(async (trx) => {
    if (/ilike/.test(query.sql)) await trx.executeQuery(CompiledQuery.raw("set local enable_seqscan = off"));
    const { rows } = await trx.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`explain (analyze, costs off, timing on) ${query.sql}`, [...query.parameters]),
    );
    return rows.map((row) => row["QUERY PLAN"]);
  });
}

console.log(
  `${handle.dialect}: ${(await services.posts.countPublishedPosts()).toLocaleString("en-US")} published posts`,
);
for (const [page, read] of pages) {
  captured.length = 0;
  const started = performance.now();
  await read();
  console.log(`\n## ${page} (${(performance.now() - started).toFixed(1)} ms, ${captured.length} statements)`);
  const seen = new Set<string>();
  for (const node of captured) {
    const query = handle.db.getExecutor().compileQuery(node, createQueryId());
    if (seen.has(query.sql) || !/^select/i.test(query.sql)) continue;
    seen.add(query.sql);
    console.log(`\n${query.sql.length > 160 ? `${query.sql.slice(0, 157)}…` : query.sql}`);
    for (const line of await explain(query)) console.log(`  ${line}`);
  }
}
await handle.close();
