// Benchmark data: many published posts that look like a real blog's (about 2 KB of HTML,
// a few tags, six categories, dates spread over years), built fast with batched inserts.
// `npm run blog -- bench-data --posts N` and `npm run bench` both use it.
import type { Kysely } from "kysely";
import { CATEGORIES } from "#domain/categories.ts";
import { postSchema } from "#domain/post.ts";
import type { Database } from "../server/kernel/db/schema.ts";
import { countPosts, insertPosts } from "../server/posts/repositories/posts.ts";
import { toPostDraft } from "../server/posts/service.ts";

/** Posts per transaction: large enough to amortise the commit, small enough to stay light on memory. */
const POSTS_PER_TRANSACTION = 2000;

/** A word that appears in about one post in 10,000: what a search for a rare word finds. */
export const RARE_WORD = "quixotically";
/** A word in nearly every post: what a search for a common word finds. */
export const COMMON_WORD = "the";

// Common English first: picking with a skewed index makes the first words frequent, the last rare.
const WORDS = (
  "the of and to in is that for it as with was on be by this are from at or an which have not but " +
  "one all were when we there can more if no out so said what up its about than into them only " +
  "time new some could these two may first then do any like my now over such our man me even most " +
  "made after also did many before must through back years where much your way well down should " +
  "because each just those people how too little state good very make world still own see men work " +
  "long get here between both life being under never day same another know while last might us great " +
  "old year off come since against go came right used take three database server request cache page " +
  "index query latency design typography colour layout grid market pricing customer invoice client " +
  "garden river lantern harbour meadow signal pattern method quiet system render browser network"
).split(" ");
const TAGS = "react sqlite postgres css performance testing security typescript node design writing career".split(" ");
const AUTHORS = ["Ada Park", "Sam Okafor", "Lena Brandt", "Marco Ruiz", "Priya Nair"];

/** A small deterministic generator, so two runs build the same blog. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function benchPost(index: number, total: number, random: () => number, start: number, span: number) {
  const word = () => WORDS[Math.floor(random() ** 2.2 * WORDS.length)]!;
  const sentence = (length: number) => {
    const words = Array.from({ length }, word);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(" ")}.`;
  };
  const paragraph = () => Array.from({ length: 5 }, () => sentence(8 + Math.floor(random() * 10))).join(" ");
  const rare = index % 10_000 === 5_000 ? ` A ${RARE_WORD} rare sentence.` : "";
  const title = sentence(4 + Math.floor(random() * 5)).slice(0, -1);
  const content =
    `<p>${paragraph()}${rare}</p><h2>${sentence(4)}</h2><p>${paragraph()}</p>` +
    `<ul><li>${sentence(6)}</li><li>${sentence(6)}</li></ul><p>${paragraph()}</p>` +
    `<blockquote><p>${sentence(12)}</p></blockquote><p>${paragraph()}</p>`;
  // Oldest first, so created order and id order agree with real use; a little jitter keeps dates distinct.
  const at = new Date(start + Math.floor(((index + random() * 0.5) / total) * span)).toISOString();
  // The schema gives every field left out here its default, as the editor would.
  const input = postSchema.parse({
    title,
    slug: `bench-post-${index}`,
    content,
    excerpt: sentence(20).slice(0, 200),
    author: AUTHORS[index % AUTHORS.length]!,
    coverImage: `https://picsum.photos/seed/bench-${index}/1200/630`,
    category: CATEGORIES[Math.floor(random() * CATEGORIES.length)]!,
    tags: [
      ...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => TAGS[Math.floor(random() * TAGS.length)]!)),
    ],
    published: true,
    format: "html",
  });
  return { ...toPostDraft(input), createdAt: at, updatedAt: at };
}

export class BlogNotEmptyError extends Error {
  override name = "BlogNotEmptyError";
}

/**
 * Adds `posts` published posts dated over the five years before `now`. Refuses a blog that
 * already has posts, so it can never mix synthetic posts into a real one.
 */
export async function generateBenchData(
  db: Kysely<Database>,
  options: { posts: number; now?: Date; onProgress?: (done: number) => void },
): Promise<void> {
  const existing = await countPosts(db);
  if (existing > 0) throw new BlogNotEmptyError(`The blog already has ${existing} posts; use an empty database.`);
  const random = createRandom(8);
  const end = (options.now ?? new Date()).getTime();
  const span = 5 * 365 * 24 * 60 * 60 * 1000;
  for (let done = 0; done < options.posts; done += POSTS_PER_TRANSACTION) {
    const size = Math.min(POSTS_PER_TRANSACTION, options.posts - done);
    await insertPosts(
      db,
      Array.from({ length: size }, (_, offset) => benchPost(done + offset, options.posts, random, end - span, span)),
    );
    options.onProgress?.(done + size);
  }
}
