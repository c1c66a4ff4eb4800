import { describe, expect, it } from "vitest";
import { isDomainError } from "#domain/errors.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts, TEST_WRITER } from "../support/factories.ts";
import { useTestBlog } from "../support/test-blog.ts";

const MINUTE = 60_000;

describe.each(testDialects())("the writer's desk on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });
  const ids = (page: { items: { id: string }[] }) => page.items.map((post) => post.id);

  describe("Markdown bodies", () => {
    it("stores the source as typed and the rendered, sanitised HTML with its reading time", async () => {
      const [post] = await createPosts(blog.services, blog.clock, [
        { format: "markdown", content: "## Hello\n\nSome **bold** words.<script>alert(1)</script>" },
      ]);
      const stored = await blog.services.posts.getPostForEditing(post!.id);
      expect(stored.format).toBe("markdown");
      expect(stored.content).toBe("## Hello\n\nSome **bold** words.<script>alert(1)</script>");
      expect(stored.contentHtml).toBe('<h2 id="h-hello">Hello</h2>\n<p>Some <strong>bold</strong> words.</p>\n');
      expect(stored.readingMinutes).toBe(1);
      const { post: shown } = await blog.services.posts.getPublicPost(post!.id);
      expect(shown.contentHtml).toBe(stored.contentHtml);
      // Search reads the rendered text, not the Markdown punctuation.
      expect(ids(await blog.services.posts.listPublishedPosts("some bold words"))).toEqual([post!.id]);
    });
  });

  describe("revisions", () => {
    it("keeps one per save, naming who saved, newest first", async () => {
      const [post] = await createPosts(blog.services, blog.clock, [{ title: "First title" }]);
      blog.clock.advance(MINUTE);
      await blog.services.posts.updatePost(
        post!.id,
        buildPostInput({ title: "Second title", content: "Second body" }),
        { label: "editor", email: "editor@example.com" },
      );
      const revisions = await blog.services.posts.listRevisions(post!.id);
      expect(revisions.map(({ number, kind, savedBy, title }) => ({ number, kind, savedBy, title }))).toEqual([
        { number: 2, kind: "save", savedBy: "editor@example.com", title: "Second title" },
        { number: 1, kind: "save", savedBy: TEST_WRITER.email, title: "First title" },
      ]);
      const first = await blog.services.posts.getRevision(post!.id, revisions[1]!.id);
      expect(first.content).toBe(post!.content);
    });

    it("keeps only the newest 50", async () => {
      const [post] = await createPosts(blog.services, blog.clock, [{ title: "Save 1" }]);
      for (let save = 2; save <= 53; save += 1) {
        blog.clock.advance(MINUTE);
        await blog.services.posts.updatePost(post!.id, buildPostInput({ title: `Save ${save}` }), TEST_WRITER);
      }
      const revisions = await blog.services.posts.listRevisions(post!.id);
      expect(revisions).toHaveLength(50);
      expect(revisions[0]!.title).toBe("Save 53");
      expect(revisions.at(-1)!.title).toBe("Save 4");
    });

    it("restoring puts the old text back as a new revision, so nothing is lost", async () => {
      const [post] = await createPosts(blog.services, blog.clock, [
        { title: "Original", content: "Original body", format: "markdown", tags: ["kept"] },
      ]);
      blog.clock.advance(MINUTE);
      await blog.services.posts.updatePost(
        post!.id,
        buildPostInput({ title: "Rewritten", content: "Rewritten body", tags: ["kept"] }),
        TEST_WRITER,
      );
      const [, original] = await blog.services.posts.listRevisions(post!.id);
      blog.clock.advance(MINUTE);
      const restored = await blog.services.posts.restoreRevision(post!.id, original!.id, {
        label: "restorer",
        email: "restorer@example.com",
      });
      expect(restored).toMatchObject({
        title: "Original",
        content: "Original body",
        format: "markdown",
        tags: ["kept"],
      });
      expect(restored.contentHtml).toBe("<p>Original body</p>\n");
      const revisions = await blog.services.posts.listRevisions(post!.id);
      expect(revisions.map(({ kind, title }) => ({ kind, title }))).toEqual([
        { kind: "restore", title: "Original" },
        { kind: "save", title: "Rewritten" },
        { kind: "save", title: "Original" },
      ]);
      expect(revisions[0]!.savedBy).toBe("restorer@example.com");
    });

    it("autosaves without touching the post, one autosave at a time, and offers it back until the next save", async () => {
      const [post] = await createPosts(blog.services, blog.clock, [{ title: "Saved title", published: false }]);
      blog.clock.advance(MINUTE);
      await blog.services.posts.autosave(
        post!.id,
        { title: "Typing…", content: "half a thought", format: "markdown" },
        TEST_WRITER,
      );
      blog.clock.advance(MINUTE);
      await blog.services.posts.autosave(
        post!.id,
        { title: "Typing more", content: "a whole thought", format: "markdown" },
        TEST_WRITER,
      );

      const stored = await blog.services.posts.getPostForEditing(post!.id);
      expect(stored).toMatchObject({ title: "Saved title", published: false, updatedAt: post!.updatedAt });
      const revisions = await blog.services.posts.listRevisions(post!.id);
      expect(revisions.map((revision) => revision.kind)).toEqual(["autosave", "save"]);
      expect(await blog.services.posts.findUnsavedDraft(post!.id)).toMatchObject({
        title: "Typing more",
        content: "a whole thought",
      });

      blog.clock.advance(MINUTE);
      await blog.services.posts.updatePost(
        post!.id,
        buildPostInput({ title: "Typing more", published: false }),
        TEST_WRITER,
      );
      expect(await blog.services.posts.findUnsavedDraft(post!.id)).toBeUndefined();
    });
  });

  describe("scheduled publishing", () => {
    it("keeps a scheduled post from every public surface until its time, then shows it without any action", async () => {
      // The clock starts at 2026-03-05T10:00Z; createPosts moves it a minute before each post.
      const [scheduled] = await createPosts(blog.services, blog.clock, [
        {
          title: "Scheduled lighthouse",
          category: "Design",
          tags: ["lamps"],
          publishAt: "2026-03-05T12:00",
          publishAtOffset: "-60", // The writer is at UTC+1: 12:00 there is 11:00 UTC.
        },
      ]);
      expect(scheduled!.publishAt).toBe("2026-03-05T11:00:00.000Z");
      expect(await blog.services.posts.nextScheduledPublishAt()).toBe("2026-03-05T11:00:00.000Z");
      const admin = await blog.services.posts.listAllPosts();
      expect(admin.items.map((post) => post.status)).toEqual(["Scheduled"]);

      const publicSurfaces = async () => ({
        list: ids(await blog.services.posts.listPublishedPosts()),
        search: ids(await blog.services.posts.listPublishedPosts("lighthouse")),
        category: ids(await blog.services.posts.listCategoryPosts("Design")),
        home: (await blog.services.posts.getHomePage()).featured?.id,
        categories: (await blog.services.posts.summariseCategories()).length,
      });
      expect(await publicSurfaces()).toEqual({ list: [], search: [], category: [], home: undefined, categories: 0 });
      await expect(blog.services.posts.getPublicPost(scheduled!.id)).rejects.toSatisfy((error) =>
        isDomainError(error, "POST_NOT_AVAILABLE"),
      );

      blog.clock.advance(59 * MINUTE); // 10:59 + 1 minute = exactly 11:00 UTC.
      const id = scheduled!.id;
      expect(await publicSurfaces()).toEqual({ list: [id], search: [id], category: [id], home: id, categories: 1 });
      expect((await blog.services.posts.getPublicPost(id)).post.title).toBe("Scheduled lighthouse");
      expect(await blog.services.posts.nextScheduledPublishAt()).toBeNull();
      expect((await blog.services.posts.listAllPosts()).items.map((post) => post.status)).toEqual(["Published"]);
    });

    it("reads a time sent without a zone as UTC, and ignores it for a draft", async () => {
      const [utc, draft] = await createPosts(blog.services, blog.clock, [
        { publishAt: "2026-04-01T09:30", publishAtOffset: "" },
        { publishAt: "2026-04-01T09:30", publishAtOffset: "", published: false },
      ]);
      expect(utc!.publishAt).toBe("2026-04-01T09:30:00.000Z");
      expect(draft!.publishAt).toBeNull();
    });
  });

  describe("private preview links", () => {
    it("shows the draft to whoever holds the link until it is revoked", async () => {
      const [draft] = await createPosts(blog.services, blog.clock, [{ title: "Draft to share", published: false }]);
      const token = await blog.services.posts.createPreviewLink(draft!.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await blog.services.posts.getPreview(token)).title).toBe("Draft to share");
      // Only the hash is stored: the database holds no usable link.
      const stored = await blog.handle.db.selectFrom("post_preview_tokens").select("token_hash").execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.token_hash).not.toBe(token);

      await blog.services.posts.revokePreviewLinks(draft!.id);
      await expect(blog.services.posts.getPreview(token)).rejects.toSatisfy((error) =>
        isDomainError(error, "PREVIEW_NOT_FOUND"),
      );
      await expect(blog.services.posts.getPreview("not-a-token-at-all-xxxxxxxx")).rejects.toSatisfy((error) =>
        isDomainError(error, "PREVIEW_NOT_FOUND"),
      );
    });

    it("ends when the post is published, and when a scheduled post's time comes", async () => {
      const [published, scheduled] = await createPosts(blog.services, blog.clock, [
        { title: "Soon public", published: false },
        { title: "Scheduled", published: false },
      ]);
      const first = await blog.services.posts.createPreviewLink(published!.id);
      await blog.services.posts.updatePost(published!.id, buildPostInput({ title: "Soon public" }), TEST_WRITER);
      await expect(blog.services.posts.getPreview(first)).rejects.toSatisfy((error) =>
        isDomainError(error, "PREVIEW_NOT_FOUND"),
      );

      const second = await blog.services.posts.createPreviewLink(scheduled!.id);
      expect((await blog.services.posts.getPreview(second)).title).toBe("Scheduled");
      expect(await blog.services.posts.findPreviewLinkCreatedAt(scheduled!.id)).toBe(blog.clock.now().toISOString());
    });
  });
});
