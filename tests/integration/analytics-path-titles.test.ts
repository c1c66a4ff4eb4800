// Analytics' top posts and pages read as the writer names them: each path's post or page title.
import { describe, expect, it } from "vitest";
import { titlesOfPaths } from "../../app/lib/path-titles.server.ts";
import { createServices } from "../../server/composition.ts";
import { testDialects } from "../support/databases.ts";
import { buildPostInput } from "../support/factories.ts";
import { recordStatements } from "../support/statements.ts";
import { TEST_COMMENT_IP_SALT, useTestBlog } from "../support/test-blog.ts";

describe.each(testDialects())("Analytics' path titles on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("names posts, pages and the home page in two statements, and leaves other paths as they are", async () => {
    const post = await blog.services.posts.createPost(buildPostInput({ title: "Herons at dawn", slug: "herons é" }));
    const recorded = recordStatements(blog.handle.db);
    const services = createServices({
      db: recorded.db,
      dialect,
      now: blog.clock.now,
      commentIpSalt: TEST_COMMENT_IP_SALT,
    });
    const paths = [
      "/",
      `/blog/${encodeURIComponent(post.slug)}`,
      "/about",
      "/blog/no-such-post",
      "/tag/birds",
      "/%E0%A4%A",
      "/blog/",
    ];
    expect(await titlesOfPaths(services, paths)).toEqual({
      "/": "Home",
      [`/blog/${encodeURIComponent(post.slug)}`]: "Herons at dawn",
      "/about": "About",
    });
    expect(recorded.statements).toHaveLength(2);
  });
});
