import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_OPTIONS } from "#domain/portability.ts";
import { createServices, type Services } from "../../server/composition.ts";
import { createTestDatabase, testDialects } from "../support/databases.ts";
import { buildPostInput, createPosts, TEST_PASSWORD_COST, TEST_WRITER } from "../support/factories.ts";
import { ghostExport, ghostPost } from "../support/ghost-export.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

const schema = JSON.parse(readFileSync(new URL("../../docs/export-format.schema.json", import.meta.url), "utf8"));

async function exportText(services: Services): Promise<string> {
  let text = "";
  for await (const chunk of services.portability.exportBlog()) text += chunk;
  return text;
}

describe.each(testDialects())("a post's canonical URL on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("is kept by the editor's save, changed by the next and emptied by a blank one", async () => {
    const { services } = blog;
    const post = await services.posts.createPost(
      buildPostInput({ canonicalUrl: "https://first.example/essays/soil" }),
      TEST_WRITER,
    );
    expect((await services.posts.getPostForEditing(post.id)).canonicalUrl).toBe("https://first.example/essays/soil");
    await services.posts.updatePost(
      post.id,
      buildPostInput({ title: post.title, canonicalUrl: "http://elsewhere.example/soil" }),
      TEST_WRITER,
    );
    expect((await services.posts.findPublicPost(post.id)).canonicalUrl).toBe("http://elsewhere.example/soil");
    await services.posts.updatePost(post.id, buildPostInput({ title: post.title }), TEST_WRITER);
    expect((await services.posts.getPostForEditing(post.id)).canonicalUrl).toBe("");
  });

  it("travels in the export, as the documented schema says, and comes back with an import", async () => {
    const { services, clock } = blog;
    await createPosts(services, clock, [
      { title: "First elsewhere", canonicalUrl: "https://first.example/a" },
      { title: "First here" },
    ]);
    const text = await exportText(services);
    const exported = JSON.parse(text) as { posts: Record<string, unknown>[] };
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(exported), JSON.stringify(validate.errors)).toBe(true);
    expect(exported.posts.map((post) => [post.title, post.canonicalUrl])).toEqual(
      expect.arrayContaining([
        ["First elsewhere", "https://first.example/a"],
        ["First here", ""],
      ]),
    );

    const target = await createTestDatabase(dialect);
    try {
      const other = createServices({
        db: target.db,
        dialect,
        now: clock.now,
        passwordCost: TEST_PASSWORD_COST,
        commentIpSalt: TEST_COMMENT_IP_SALT,
      });
      await other.portability.importBlog(text, DEFAULT_IMPORT_OPTIONS);
      const imported = (await other.posts.listPublishedPosts()).items;
      expect(imported.map((post) => [post.title, post.canonicalUrl])).toEqual(
        expect.arrayContaining([
          ["First elsewhere", "https://first.example/a"],
          ["First here", ""],
        ]),
      );
    } finally {
      await target.close();
    }
  });

  it("is read from a Ghost export's canonical_url, and left out when it is not a web address", async () => {
    const { services } = blog;
    await services.portability.importBlog(
      ghostExport([
        ghostPost("g1", "Syndicated", { canonical_url: "https://medium.example/@me/syndicated-1" }),
        ghostPost("g2", "Own", { canonical_url: null }),
        ghostPost("g3", "Odd", { canonical_url: "javascript:alert(1)" }),
      ]),
      DEFAULT_IMPORT_OPTIONS,
    );
    const posts = (await services.posts.listPublishedPosts()).items;
    expect(Object.fromEntries(posts.map((post) => [post.title, post.canonicalUrl]))).toEqual({
      Syndicated: "https://medium.example/@me/syndicated-1",
      Own: "",
      Odd: "",
    });
  });
});
