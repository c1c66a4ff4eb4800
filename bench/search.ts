// Search: the trigram index against what the original app did (load every published post, filter in memory).
// Both run in the same process on the same data, so their ratio is what to read, not the absolute times.
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "../server/kernel/db/connect.ts";
import { htmlToText } from "../server/kernel/html.ts";
import { postSchema } from "#domain/post.ts";
import { insertPosts } from "../server/posts/repositories/posts.ts";
import { searchPublishedPosts } from "../server/posts/repositories/posts-search.ts";
import { toPostDraft } from "../server/posts/service.ts";
import { onScratchDatabases } from "./scratch-databases.ts";

const POSTS = Number(process.env.BENCH_POSTS ?? 3000);
const ROUNDS = 30;
const WORDS = "garden river system design market lantern quiet method pattern signal harbour meadow".split(" ");

function paragraph(seed: number): string {
  return Array.from({ length: 60 }, (_, index) => WORDS[(seed * 7 + index * 13) % WORDS.length]).join(" ");
}

async function seed(handle: DatabaseHandle): Promise<void> {
  const start = Date.parse("2020-01-01T00:00:00Z");
  const posts = Array.from({ length: POSTS }, (_, index) => {
    const at = new Date(start + index * 60_000).toISOString();
    const input = postSchema.parse({
      slug: `post-${index}`,
      title:
        index === POSTS / 2 ? "The needle-in-a-haystack post" : `Post ${index} about ${WORDS[index % WORDS.length]}`,
      content: `<h2>Part ${index}</h2><p>${paragraph(index)}</p><p>${paragraph(index + 1)}</p>`.repeat(4),
      excerpt: paragraph(index).slice(0, 140),
      author: "Bench",
      coverImage: "https://example.com/c.jpg",
      category: "Development",
      tags: [WORDS[index % WORDS.length]!, "bench"],
      published: true,
      format: "html",
    });
    return { ...toPostDraft(input), createdAt: at, updatedAt: at };
  });
  await insertPosts(handle.db, posts);
}

async function time(label: string, run: () => Promise<unknown>): Promise<number> {
  await run();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) await run();
  const perQuery = (performance.now() - started) / ROUNDS;
  console.log(`  ${label.padEnd(44)} ${perQuery.toFixed(2).padStart(9)} ms/query`);
  return perQuery;
}

async function measure(handle: DatabaseHandle): Promise<void> {
  console.log(`\n${handle.dialect}: ${POSTS} published posts`);
  const seedStarted = performance.now();
  await seed(handle);
  console.log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
  for (const query of ["needle-in-a-haystack", "harbour meadow", "zz"]) {
    const indexed = await time(`index: "${query}"`, () =>
      searchPublishedPosts(handle.db, handle.dialect, query, new Date().toISOString(), { page: 1, pageSize: 24 }),
    );
    const inMemory = await time(`load all + filter: "${query}"`, async () => {
      const needle = query.toLowerCase();
      const everyPost = await handle.db.selectFrom("posts").selectAll().where("published", "=", 1).execute();
      const tagsByPost = Map.groupBy(
        await handle.db.selectFrom("post_tags").select(["post_id", "tag"]).execute(),
        (row) => row.post_id,
      );
      return everyPost.filter(
        (post) =>
          post.title.toLowerCase().includes(needle) ||
          htmlToText(post.content).toLowerCase().includes(needle) ||
          (tagsByPost.get(post.id) ?? []).some(({ tag }) => tag.toLowerCase().includes(needle)),
      );
    });
    console.log(`  → the index answers ${(inMemory / indexed).toFixed(1)}× faster`);
  }
}

await onScratchDatabases("bench-search", measure);
