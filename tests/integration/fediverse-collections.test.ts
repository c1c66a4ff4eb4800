import { describe, expect, it } from "vitest";
import { testDialects } from "../support/databases.ts";
import { useFederatedBlog } from "../support/federated-blog.ts";
import { buildPostInput } from "../support/factories.ts";

// Issue 32, item 5: a cursor or id the blog's own collections never hand out is refused with 400
// before it reaches a query (a NUL byte answered 500 on PostgreSQL), and the cursors they do hand
// out keep working.

const HOSTILE = ["%00", "abc%00def", "%FF", "%zz", "x".repeat(300), "'%20OR%201=1", "-1", "0", "1e309", "1.5", "%20"];

describe.each(testDialects())("the fediverse collections' cursors on $dialect", (target) => {
  const blog = useFederatedBlog(target);

  async function follower(name: string) {
    await blog.services.fediverse.followFrom({
      actorUrl: `https://social.example/users/${name}`,
      handle: `@${name}@social.example`,
      inboxUrl: `https://social.example/users/${name}/inbox`,
      sharedInboxUrl: null,
      followActivityId: `https://social.example/follows/${name}`,
    });
  }

  it("refuses a cursor the followers, outbox or following never hand out with 400 in plain words", async () => {
    for (const collection of ["followers", "outbox", "following"]) {
      for (const cursor of HOSTILE) {
        const response = await blog.get(`/ap/users/blog/${collection}?cursor=${cursor}`);
        expect(response.status, `${collection}?cursor=${cursor}`).toBe(400);
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
        expect(await response.text()).toMatch(/cursor/i);
      }
    }
  });

  it("refuses a post id that names no post's form with 400, and answers a real one", async () => {
    const post = await blog.services.posts.createPost(buildPostInput());
    for (const id of ["%00", "a%00b", "%FF", "x".repeat(300), "a%20b", "a.b"]) {
      const response = await blog.get(`/ap/posts/${id}`);
      expect(response.status, `/ap/posts/${id}`).toBe(400);
    }
    expect((await blog.get(`/ap/posts/${post.id}`)).status).toBe(200);
    expect((await blog.get("/ap/posts/abcdefghijklmnop")).status).toBe(404);
  });

  it("still follows the cursors it hands out, page to page", async () => {
    for (const name of ["alice", "bob"]) await follower(name);
    const followers = (await (await blog.get("/ap/users/blog/followers")).json()) as { first: string };
    const page = (await (
      await fetch(followers.first, { headers: { accept: "application/activity+json" } })
    ).json()) as {
      orderedItems: string[];
    };
    expect(page.orderedItems).toHaveLength(2);

    await blog.services.posts.createPost(buildPostInput());
    const outbox = (await (await blog.get("/ap/users/blog/outbox")).json()) as { first: string; last: string };
    for (const address of [outbox.first, outbox.last]) {
      expect((await fetch(address, { headers: { accept: "application/activity+json" } })).status).toBe(200);
    }
    expect((await blog.get("/ap/users/blog/following")).status).toBe(200);
  });
});
