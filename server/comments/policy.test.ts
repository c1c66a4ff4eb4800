import { describe, expect, it } from "vitest";
import { DEFAULT_COMMENT_SETTINGS } from "#domain/comment-settings.ts";
import { type CommentFacts, countLinks, decideComment } from "./policy.ts";

const now = new Date("2026-03-05T10:00:00.000Z");
const plain = { author: "Ann", content: "Thanks, this helped.", honeypot: "" };

function facts(overrides: Partial<CommentFacts> = {}): CommentFacts {
  return {
    post: { createdAt: "2026-03-01T10:00:00.000Z", commentsClosed: false },
    settings: DEFAULT_COMMENT_SETTINGS,
    now,
    address: { lastCommentAt: undefined, postedSameTextRecently: false, onSpamList: false },
    floodWindowMs: 15_000,
    ...overrides,
  };
}

describe("decideComment", () => {
  it("publishes an ordinary comment at once", () => {
    expect(decideComment(plain, facts())).toEqual({ outcome: "approve" });
  });

  it("holds a comment with more than two links, and publishes one with two", () => {
    const three = { ...plain, content: "see https://a.example http://b.example and www.c.example" };
    expect(decideComment(three, facts())).toEqual({ outcome: "hold", reason: "3 links" });
    const two = { ...plain, content: "see https://a.example and https://b.example" };
    expect(decideComment(two, facts())).toEqual({ outcome: "approve" });
  });

  it("holds a name or text containing a blocklist line, ignoring case and blank lines", () => {
    const settings = { ...DEFAULT_COMMENT_SETTINGS, blocklist: "cheap pills\n\n  spam.example  \n" };
    expect(decideComment({ ...plain, content: "Buy CHEAP PILLS now" }, facts({ settings }))).toEqual({
      outcome: "hold",
      reason: "Blocklist: cheap pills",
    });
    expect(decideComment({ ...plain, author: "bot@spam.example" }, facts({ settings }))).toEqual({
      outcome: "hold",
      reason: "Blocklist: spam.example",
    });
    expect(decideComment(plain, facts({ settings }))).toEqual({ outcome: "approve" });
  });

  it("holds every comment when the writer asks, and everything from an address on the spam list", () => {
    const holdAll = { ...DEFAULT_COMMENT_SETTINGS, holdAll: true };
    expect(decideComment(plain, facts({ settings: holdAll }))).toMatchObject({ outcome: "hold" });
    const spammer = { lastCommentAt: undefined, postedSameTextRecently: false, onSpamList: true };
    expect(decideComment(plain, facts({ address: spammer }))).toEqual({
      outcome: "hold",
      reason: "Address marked as spam before",
    });
  });

  it("refuses a filled honeypot, a duplicate and a second comment within the flood window", () => {
    expect(decideComment({ ...plain, honeypot: "http://bot.example" }, facts())).toEqual({
      outcome: "refuse",
      refusal: "honeypot",
    });
    const duplicate = { lastCommentAt: undefined, postedSameTextRecently: true, onSpamList: false };
    expect(decideComment(plain, facts({ address: duplicate }))).toEqual({ outcome: "refuse", refusal: "duplicate" });
    const recent = {
      lastCommentAt: new Date(now.getTime() - 4_500).toISOString(),
      postedSameTextRecently: false,
      onSpamList: false,
    };
    expect(decideComment(plain, facts({ address: recent }))).toEqual({
      outcome: "refuse",
      refusal: "flood",
      retryAfterSeconds: 11,
    });
    const longAgo = { ...recent, lastCommentAt: new Date(now.getTime() - 15_000).toISOString() };
    expect(decideComment(plain, facts({ address: longAgo }))).toEqual({ outcome: "approve" });
  });

  it("applies no per-address rule to a comment without an address", () => {
    expect(decideComment(plain, facts({ address: null }))).toEqual({ outcome: "approve" });
  });

  it("refuses comments on a closed post, or on one older than the site-wide limit", () => {
    const closedPost = { createdAt: "2026-03-01T10:00:00.000Z", commentsClosed: true };
    expect(decideComment(plain, facts({ post: closedPost }))).toEqual({ outcome: "refuse", refusal: "closed" });
    const afterFourDays = { ...DEFAULT_COMMENT_SETTINGS, closeAfterDays: 4 };
    expect(decideComment(plain, facts({ settings: afterFourDays }))).toEqual({ outcome: "refuse", refusal: "closed" });
    const afterFiveDays = { ...DEFAULT_COMMENT_SETTINGS, closeAfterDays: 5 };
    expect(decideComment(plain, facts({ settings: afterFiveDays }))).toEqual({ outcome: "approve" });
  });
});

describe("countLinks", () => {
  it("counts web addresses, not the word http or a bare domain", () => {
    expect(countLinks("http is a protocol; example.com")).toBe(0);
    expect(countLinks("HTTPS://A.example www.b.example")).toBe(2);
  });
});
