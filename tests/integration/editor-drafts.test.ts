import { describe, expect, it } from "vitest";
import { action as newPageAction } from "../../app/routes/admin/page-new.tsx";
import { action as editPageAction } from "../../app/routes/admin/page-edit.tsx";
import { action as pagePreviewLinkAction } from "../../app/routes/admin/page-preview-link.ts";
import { action as newPostAction } from "../../app/routes/admin/post-new.tsx";
import { action as editPostAction, loader as editPostLoader } from "../../app/routes/admin/post-edit.tsx";
import { action as postPreviewLinkAction } from "../../app/routes/admin/post-preview-link.ts";
import { loader as pagePreviewLoader } from "../../app/routes/site/page-preview.tsx";
import { loader as postPreviewLoader } from "../../app/routes/site/preview.tsx";
import { testDialects } from "../support/databases.ts";
import { createRouteTestContext, postForm, routeArgs, settle, TEST_ADMIN } from "../support/route-context.ts";
import { useTestBlog } from "../support/test-blog.ts";

type AnyArgs = never;
type Handler = (args: AnyArgs) => unknown;

/** The post form as a browser without JavaScript sends it, with only what the writer filled in. */
function postFields(fields: Record<string, string>) {
  const empty = { title: "", slug: "", canonicalUrl: "", content: "", excerpt: "", author: "", coverImage: "" };
  return { ...empty, newTags: "", format: "markdown", publishAt: "", publishAtOffset: "", ...fields };
}

const COMPLETE_POST = {
  content: "Body",
  excerpt: "Short",
  author: "Ada",
  coverImage: "https://images.example.com/a.jpg",
  category: "Design",
};

describe.each(testDialects())("Save draft and keep editing, on $dialect", (database) => {
  const blog = useTestBlog(database);
  const call = (handler: Handler, request: Request, params: Record<string, string> = {}) => {
    const { context } = createRouteTestContext(blog.services, TEST_ADMIN);
    return settle(() => handler(routeArgs(request, context, params) as AnyArgs));
  };
  const newPost = (fields: Record<string, string>) =>
    call(newPostAction, postForm("http://blog.test/admin/posts/new", postFields(fields)));
  const editPost = (id: string, fields: Record<string, string>) =>
    call(editPostAction, postForm(`http://blog.test/admin/posts/edit/${id}`, postFields(fields)), { id });
  const editedId = (location: string | null) => /^\/admin\/(?:posts|pages)\/edit\/([\w-]+)$/.exec(location ?? "")![1]!;

  it("saves a post with only a title as a draft without category, and stays in its editor", async () => {
    const saved = await newPost({ title: "Half an idea", published: "on", intent: "draft" });
    expect(saved.status).toBe(302);
    const id = editedId(saved.headers.get("Location"));
    expect(saved.headers.get("Set-Cookie")).toContain("blog_flash=");
    const post = await blog.services.posts.getPostForEditing(id);
    expect(post).toMatchObject({ title: "Half an idea", category: "", excerpt: "", coverImage: "", published: false });
    const listed = await blog.services.posts.listAllPosts("Half an idea");
    expect(listed.items).toEqual([expect.objectContaining({ id, status: "Draft", category: "" })]);

    const untitled = await newPost({ title: "   ", intent: "draft" });
    const stored = await blog.services.posts.getPostForEditing(editedId(untitled.headers.get("Location")));
    expect(stored).toMatchObject({ title: "Untitled", slug: expect.stringMatching(/^untitled/), published: false });

    // The draft's editor opens with what was saved.
    const loaded = await call(editPostLoader, new Request(`http://blog.test/admin/posts/edit/${id}`), { id });
    expect(loaded.body).toMatchObject({ values: { title: "Half an idea", category: "" }, isPublic: false });
  });

  it("keeps what the draft rules still check: limits and well-formed addresses", async () => {
    const refused = await newPost({ title: "x", coverImage: "not a url", intent: "draft" });
    expect(refused).toMatchObject({ status: 400, body: { errors: { coverImage: "Please enter a valid URL" } } });
    const tooLong = await newPost({ title: "x".repeat(201), intent: "draft" });
    expect(tooLong).toMatchObject({ status: 400, body: { errors: { title: "Title must be at most 200 characters" } } });
  });

  it("keeps the spec's rules for Create Post and for the save that publishes a draft", async () => {
    const refused = await newPost({ title: "Only a title" });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errors: {
          content: "Content is required",
          excerpt: "Excerpt is required",
          author: "Author is required",
          coverImage: "Cover image URL is required",
          category: "Category is required",
        },
      },
    });
    expect((await blog.services.posts.listAllPosts("Only a title")).items).toEqual([]);

    const draft = await newPost({ title: "Not yet", intent: "draft" });
    const id = editedId(draft.headers.get("Location"));
    const publishing = await editPost(id, { title: "Not yet", ...COMPLETE_POST, category: "", published: "on" });
    expect(publishing).toMatchObject({ status: 400, body: { errors: { category: "Category is required" } } });
    expect(await blog.services.posts.getPostForEditing(id)).toMatchObject({ published: false, category: "" });

    const published = await editPost(id, { title: "Not yet", ...COMPLETE_POST, published: "on" });
    expect(published.headers.get("Location")).toBe("/admin/posts");
    expect(await blog.services.posts.getPostForEditing(id)).toMatchObject({ published: true, category: "Design" });
  });

  it("creates or saves under the full rules and stays in the editor when asked", async () => {
    const created = await newPost({ title: "Kept open", ...COMPLETE_POST, intent: "stay" });
    const id = editedId(created.headers.get("Location"));
    expect(await blog.services.posts.getPostForEditing(id)).toMatchObject({ title: "Kept open", published: false });
    const saved = await editPost(id, { title: "Kept open, again", ...COMPLETE_POST, intent: "stay" });
    expect(saved.headers.get("Location")).toBe(`/admin/posts/edit/${id}`);
    const refused = await editPost(id, { title: "Kept open", intent: "stay" });
    expect(refused).toMatchObject({ status: 400, body: { errors: { excerpt: "Excerpt is required" } } });
  });

  it("saves a page with nothing but a title as a draft, and Create Page keeps its rules", async () => {
    const pageFields = (fields: Record<string, string>) => ({
      slug: "",
      content: "",
      format: "markdown",
      description: "",
      ...fields,
    });
    const newPage = (fields: Record<string, string>) =>
      call(newPageAction, postForm("http://blog.test/admin/pages/new", pageFields(fields)));
    const refused = await newPage({ title: "" });
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: { title: "Title is required", content: "Content is required" } },
    });

    const saved = await newPage({ title: "", published: "on", intent: "draft" });
    const id = editedId(saved.headers.get("Location"));
    expect(await blog.services.pages.getPageForEditing(id)).toMatchObject({
      title: "Untitled",
      content: "",
      published: false,
    });
    const again = await call(
      editPageAction,
      postForm(`http://blog.test/admin/pages/edit/${id}`, pageFields({ title: "Colophon", intent: "draft" })),
      { id },
    );
    expect(again.headers.get("Location")).toBe(`/admin/pages/edit/${id}`);
    expect(await blog.services.pages.getPageForEditing(id)).toMatchObject({ title: "Colophon", published: false });
  });

  it("opens a draft's preview from View post and View page", async () => {
    const draft = await newPost({ title: "Preview me", content: "Seen **early**.", intent: "draft" });
    const postId = editedId(draft.headers.get("Location"));
    const viewed = await call(
      postPreviewLinkAction,
      postForm(`http://blog.test/admin/posts/${postId}/preview-link`, { intent: "view" }),
      { id: postId },
    );
    expect(viewed.status).toBe(302);
    const token = /^\/preview\/([\w-]+)$/.exec(viewed.headers.get("Location") ?? "")![1]!;
    const preview = await call(postPreviewLoader, new Request(`http://blog.test/preview/${token}`), { token });
    expect(preview.body).toMatchObject({ post: { title: "Preview me" } });

    const page = await call(
      newPageAction,
      postForm("http://blog.test/admin/pages/new", { title: "Draft page", content: "Soon.", intent: "draft" }),
    );
    const pageId = editedId(page.headers.get("Location"));
    const pageViewed = await call(
      pagePreviewLinkAction,
      postForm(`http://blog.test/admin/pages/${pageId}/preview-link`, { intent: "view" }),
      { id: pageId },
    );
    const pageToken = /^\/preview\/page\/([\w-]+)$/.exec(pageViewed.headers.get("Location") ?? "")![1]!;
    const pagePreview = await call(pagePreviewLoader, new Request(`http://blog.test/preview/page/${pageToken}`), {
      token: pageToken,
    });
    expect(pagePreview.body).toMatchObject({ page: { title: "Draft page" } });
  });
});
