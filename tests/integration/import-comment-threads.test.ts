import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_OPTIONS } from "#domain/portability.ts";
import { testDialects } from "../support/databases.ts";
import { useTestBlog } from "../support/test-blog.ts";

const wordpress = readFileSync(new URL("../fixtures/wordpress-export.xml", import.meta.url), "utf8");

/** A WordPress export of one post whose comments are [id, parent, author, minutes after the post]. */
function threadedExport(comments: [number, number, string, number][]): string {
  const items = comments.map(
    ([id, parent, author, minutes]) => `<wp:comment>
      <wp:comment_id>${id}</wp:comment_id>
      <wp:comment_author><![CDATA[${author}]]></wp:comment_author>
      <wp:comment_date_gmt><![CDATA[2025-01-20 10:${String(minutes).padStart(2, "0")}:00]]></wp:comment_date_gmt>
      <wp:comment_content><![CDATA[Said by ${author}]]></wp:comment_content>
      <wp:comment_approved><![CDATA[1]]></wp:comment_approved>
      <wp:comment_type><![CDATA[comment]]></wp:comment_type>
      <wp:comment_parent>${parent}</wp:comment_parent>
    </wp:comment>`,
  );
  return `${wordpress.slice(0, wordpress.indexOf("<item>"))}<item>
    <title><![CDATA[Threads]]></title>
    <dc:creator><![CDATA[jdoe]]></dc:creator>
    <content:encoded><![CDATA[<p>Body.</p>]]></content:encoded>
    <wp:post_id>1</wp:post_id>
    <wp:post_date_gmt><![CDATA[2025-01-20 09:00:00]]></wp:post_date_gmt>
    <wp:status><![CDATA[publish]]></wp:status>
    <wp:post_type><![CDATA[post]]></wp:post_type>
    ${items.join("\n")}
  </item>
</channel>
</rss>
`;
}

describe.each(testDialects())("imported comment threads on $dialect", ({ dialect, skip }) => {
  const blog = useTestBlog({ dialect, skip });

  it("keeps WordPress's threads one level deep: a reply to a reply joins its thread, whatever the order", async () => {
    const { services } = blog;
    // 12 answers 11, which answers 10; 14 answers 13, which is in the export after it; 15 answers a comment not there.
    const report = await services.portability.importBlog(
      threadedExport([
        [10, 0, "Ann", 1],
        [11, 10, "Bob", 2],
        [12, 11, "Cy", 3],
        [14, 13, "Eve", 5],
        [13, 0, "Di", 4],
        [15, 99, "Fay", 6],
      ]),
      DEFAULT_IMPORT_OPTIONS,
    );
    expect(report.created.comments).toBe(6);
    const post = (await services.posts.listAllPosts("Threads")).items[0]!;
    const page = await services.comments.listPublicComments(post.id);
    expect(page.items.map((thread) => [thread.author, thread.replies.map((reply) => reply.author)])).toEqual([
      ["Fay", []],
      ["Di", ["Eve"]],
      ["Ann", ["Bob", "Cy"]],
    ]);

    // A later export imported again: a new reply to an old comment finds its thread among what came before.
    const again = await services.portability.importBlog(
      threadedExport([
        [10, 0, "Ann", 1],
        [11, 10, "Bob", 2],
        [16, 11, "Gus", 7],
      ]),
      DEFAULT_IMPORT_OPTIONS,
    );
    expect(again.created.comments).toBe(1);
    const after = await services.comments.listPublicComments(post.id);
    expect(after.items.find((thread) => thread.author === "Ann")!.replies.map((reply) => reply.author)).toEqual([
      "Bob",
      "Cy",
      "Gus",
    ]);
  });
});
