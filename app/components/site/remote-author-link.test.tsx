import { DomUtils, parseDocument } from "htmlparser2";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { Comment } from "#domain/comment.ts";
import { CommentRow, type ListedComment } from "../admin/comment-moderation";
import { CommentSection } from "./comment-section";

const reply: Comment = {
  id: "c1",
  postId: "p1",
  author: "Alice Example",
  content: "Lovely post",
  createdAt: "2026-03-05T10:00:00.000Z",
  remoteAuthor: { handle: "@alice@social.example", url: "https://social.example/users/alice" },
};

/** The page's links as a reader's browser sees them. */
function linksIn(element: React.ReactNode) {
  const Stub = createRoutesStub([{ path: "/", Component: () => element }]);
  const root = parseDocument(renderToStaticMarkup(<Stub initialEntries={["/"]} />));
  return DomUtils.getElementsByTagName("a", root).map((link) => ({
    text: DomUtils.textContent(link),
    href: DomUtils.getAttributeValue(link, "href"),
    rel: DomUtils.getAttributeValue(link, "rel"),
  }));
}

function section(comment: Comment) {
  return (
    <CommentSection
      comments={{ items: [{ ...comment, replies: [] }], total: 1, page: 1, pageSize: 50, commentCount: 1 }}
      awaitingModeration={[]}
      open={false}
      postPath="/blog/a-post"
      replyTo={undefined}
      writer={undefined}
      result={undefined}
    />
  );
}

describe("an approved reply from the fediverse on its post", () => {
  it("shows its author's name with their handle linked to their profile, without endorsing it", () => {
    expect(linksIn(section(reply))).toEqual([
      {
        text: "@alice@social.example",
        href: "https://social.example/users/alice",
        rel: "nofollow ugc noopener noreferrer",
      },
    ]);
  });

  it("links nothing but a web address", () => {
    const odd = { ...reply, remoteAuthor: { handle: "@x@odd.example", url: "javascript:alert(1)" } };
    expect(linksIn(section(odd))).toEqual([]);
  });

  it("shows a visitor's comment as before, with no link", () => {
    const { remoteAuthor: _remote, ...visitor } = reply;
    expect(linksIn(section(visitor))).toEqual([]);
  });
});

describe("a reply from the fediverse on the Comments screen", () => {
  it("shows the handle under the name, linked to the profile", () => {
    const listed: ListedComment = {
      ...reply,
      addressMark: null,
      heldReason: "Reply from the fediverse",
      postTitle: "A post",
      postSlug: "a-post",
    };
    const row = (
      <table>
        <tbody>
          <CommentRow comment={listed} status="pending" back="/admin/comments" hydrated={false} />
        </tbody>
      </table>
    );
    expect(linksIn(row)).toEqual([
      {
        text: "@alice@social.example",
        href: "https://social.example/users/alice",
        rel: "nofollow ugc noopener noreferrer",
      },
      { text: "A post", href: "/blog/a-post", rel: undefined },
    ]);
  });
});
