import { type Post, type PostInput, postSchema } from "#domain/post.ts";
import type { Services } from "../../server/composition.ts";

let sequence = 0;

/** The admin every test save is made by. */
export const TEST_WRITER = { label: "writer", email: "writer@example.com" };

/** A valid post: the schema's defaults for every field a test leaves out, then the test's own values as given. */
export function buildPostInput(overrides: Partial<PostInput> = {}): PostInput {
  sequence += 1;
  const input = postSchema.parse({
    title: `Post number ${sequence}`,
    content: `<p>Body of post ${sequence}.</p>`,
    excerpt: `Excerpt of post ${sequence}.`,
    author: "Ada Writer",
    coverImage: "https://images.example.com/cover.jpg",
    category: "Development",
    published: true,
    format: "html",
  });
  return { ...input, ...overrides };
}

/** A clock the test moves by hand, so orderings and timestamps are exact. */
export function createManualClock(start = new Date("2026-03-05T10:00:00.000Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

/** Creates posts one clock tick apart, oldest first, so the last one is the newest. */
export async function createPosts(
  services: Services,
  clock: ReturnType<typeof createManualClock>,
  inputs: Partial<PostInput>[],
): Promise<Post[]> {
  const created: Post[] = [];
  for (const overrides of inputs) {
    clock.advance(60_000);
    created.push(await services.posts.createPost(buildPostInput(overrides), TEST_WRITER));
  }
  return created;
}

/** Cheap scrypt parameters: the format and checks are the same, the cost is not what tests measure. */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 };
