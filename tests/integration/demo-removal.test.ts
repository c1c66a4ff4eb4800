import { describe, expect, it } from "vitest";
import { postSchema, toPostFormValues } from "#domain/post.ts";
import { action as toolsAction, loader as toolsLoader } from "../../app/routes/admin/tools.tsx";
import { demoPosts } from "../../server/demo/demo-content.ts";
import { seedDemoContent } from "../../server/demo/service.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, TEST_WRITER } from "../support/factories.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
const call = (handler: (args: AnyArgs) => unknown, request: Request, context: unknown) =>
  settle(() => handler(routeArgs(request, context as Parameters<typeof routeArgs>[1]) as AnyArgs));

const demoComments = demoPosts.reduce((sum, demo) => sum + demo.comments.length, 0);

describe.each(testDialects())("removing the demo content, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const seed = () =>
    seedDemoContent(blog.handle.db, blog.services.comments, { siteUrl: "http://blog.test", now: blog.clock.now() });
  const titles = async () => (await blog.services.posts.listAllPosts()).items.map((post) => post.title).sort();
  const demoPost = async (title: string) =>
    (await blog.services.posts.listAllPosts(title)).items.find((post) => post.title === title)!;

  it("removes every demo post and comment nobody touched, and keeps the writer's own posts", async () => {
    await seed();
    blog.clock.advance(60_000);
    await blog.services.posts.createPost(buildPostInput({ title: "My own post" }), TEST_WRITER);
    expect(await blog.services.demo.survey()).toMatchObject({ kept: [] });
    expect((await blog.services.demo.survey()).removable).toHaveLength(demoPosts.length);

    expect(await blog.services.demo.remove({ label: "owner" })).toEqual({
      posts: demoPosts.length,
      comments: demoComments,
      kept: [],
    });
    expect(await titles()).toEqual(["My own post"]);
    expect(await blog.handle.db.selectFrom("comments").select("id").execute()).toEqual([]);
  });

  it("keeps a demo post the writer edited, one with a reader's comment, and one with an unsaved autosave", async () => {
    await seed();
    const [edited, commented, autosaved] = demoPosts.filter((demo) => demo.published);
    blog.clock.advance(60_000);
    const editedPost = await blog.services.posts.getPostForEditing((await demoPost(edited!.title)).id);
    const input = postSchema.parse({ ...toPostFormValues(editedPost), excerpt: "My own words now." });
    await blog.services.posts.updatePost(editedPost.id, input, TEST_WRITER);
    const commentedPost = await demoPost(commented!.title);
    await blog.services.comments.addApprovedComments(commentedPost.id, [
      { author: "A real reader", content: "Thanks for this.", createdAt: blog.clock.now().toISOString() },
    ]);
    const autosavedPost = await blog.services.posts.getPostForEditing((await demoPost(autosaved!.title)).id);
    await blog.services.posts.autosave(
      autosavedPost.id,
      { title: autosavedPost.title, content: `${autosavedPost.content}<p>More.</p>`, format: "html" },
      TEST_WRITER,
    );

    const removed = await blog.services.demo.remove({ label: "owner" });
    expect(removed.posts).toBe(demoPosts.length - 3);
    expect(removed.kept.sort()).toEqual([edited!.title, commented!.title, autosaved!.title].sort());
    expect(await titles()).toEqual([edited!.title, commented!.title, autosaved!.title].sort());
    // The reader's comment stays with its post, beside the demo's own.
    const kept = await blog.services.comments.listPublicComments(commentedPost.id);
    expect(kept.items.map((comment) => comment.author)).toContain("A real reader");
  });

  it("never loads the demo again once removed, even into a blog left empty", async () => {
    await seed();
    await blog.services.demo.remove({ label: "owner" });
    expect(await titles()).toEqual([]);
    expect(await seed()).toBe(0);
    expect(await titles()).toEqual([]);
  });

  it("asks first on the Tools page and answers the removal in words, for the owner only", async () => {
    await seed();
    const owner = createRouteTestContext(blog.services, TEST_ADMIN).context;
    const asked = await call(toolsLoader, new Request("http://blog.test/admin/tools?remove-demo"), owner);
    expect(asked.body).toEqual({
      categories: expect.arrayContaining(["Development", "Tutorials"]),
      demo: { posts: demoPosts.length, comments: demoComments, kept: [] },
      asking: true,
    });
    const editor = createRouteTestContext(blog.services, { ...TEST_ADMIN, role: "editor" }).context;
    const refused = await call(
      toolsAction,
      postForm("http://blog.test/admin/tools", { intent: "remove-demo" }),
      editor,
    );
    expect(refused.status).toBe(403);
    expect((await blog.services.posts.listAllPosts()).total).toBe(demoPosts.length);

    const done = await call(toolsAction, postForm("http://blog.test/admin/tools", { intent: "remove-demo" }), owner);
    expect(done.body).toEqual({
      demoRemoved: [`Removed ${demoPosts.length} demo posts and ${demoComments} comments.`],
    });
  });
});
