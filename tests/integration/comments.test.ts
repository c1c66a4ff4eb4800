import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connect.ts";
import { isDomainError } from "../../server/errors.ts";
import { createServices, type Services } from "../../server/services/index.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { createManualClock, createPosts } from "../support/factories.ts";

describe.each(testDialects())("comments on $dialect", ({ dialect, skip }) => {
  let handle: DatabaseHandle;
  let services: Services;
  let clock: ReturnType<typeof createManualClock>;

  beforeEach(async (context) => {
    if (skip) context.skip();
    handle = await createTestDatabase(dialect);
    clock = createManualClock();
    services = createServices({ db: handle.db, dialect, now: clock.now });
  });
  afterEach(async () => {
    await handle?.close();
  });

  it("stores a comment with the time it was made and lists newest first", async () => {
    const [post] = await createPosts(services, clock, [{}]);
    const first = await services.comments.addComment(post!.id, { author: "Ann", content: "First!" });
    expect(first.createdAt).toBe(clock.now().toISOString());
    clock.advance(1000);
    await services.comments.addComment(post!.id, { author: "Bob", content: "Second" });
    const { comments } = await services.posts.getPublicPost(post!.id);
    expect(comments.map((comment) => comment.author)).toEqual(["Bob", "Ann"]);
  });

  it("keeps odd unicode and markup as plain text", async () => {
    const [post] = await createPosts(services, clock, [{}]);
    const content = "<script>alert(1)</script> Zalgo z̷̢a̶l̸g̵o 🙂 \u202Eright-to-left";
    await services.comments.addComment(post!.id, { author: "名前", content });
    const { comments } = await services.posts.getPublicPost(post!.id);
    expect(comments[0]).toMatchObject({ author: "名前", content });
  });

  it("refuses comments on drafts and on missing posts", async () => {
    const [draft] = await createPosts(services, clock, [{ published: false }]);
    await expect(services.comments.addComment(draft!.id, { author: "A", content: "B" })).rejects.toSatisfy((error) =>
      isDomainError(error, "POST_NOT_AVAILABLE"),
    );
    await expect(services.comments.addComment("missing", { author: "A", content: "B" })).rejects.toSatisfy((error) =>
      isDomainError(error, "POST_NOT_FOUND"),
    );
  });
});
