import { describe, expect, it } from "vitest";
import { validateForm } from "./forms.ts";
import { localDateTimeToUtc, newsletterAfterSave, postForm, postStatus } from "./post.ts";

describe("scheduling times", () => {
  it("reads a datetime-local value with the browser's offset, or as UTC without one", () => {
    expect(localDateTimeToUtc("2026-07-01T09:30", "-120")).toBe("2026-07-01T07:30:00.000Z");
    expect(localDateTimeToUtc("2026-01-01T09:30", "300")).toBe("2026-01-01T14:30:00.000Z");
    expect(localDateTimeToUtc("2026-01-01T09:30:15", "")).toBe("2026-01-01T09:30:15.000Z");
    expect(localDateTimeToUtc("2026-02-31T09:30", "0")).toBeUndefined();
    expect(localDateTimeToUtc("tomorrow", "0")).toBeUndefined();
  });

  it("refuses a time the browser could not have sent", () => {
    const formData = new FormData();
    formData.set("publishAt", "2026-13-01T00:00");
    const parsed = validateForm(postForm, postForm.read(formData));
    expect(parsed.success).toBe(false);
    expect(parsed.success ? undefined : parsed.errors.publishAt).toBe("Please enter a date and time");
  });

  it("calls a published post with a time still ahead Scheduled", () => {
    const now = new Date("2026-03-05T10:00:00Z");
    expect(postStatus({ published: false, publishAt: null }, now)).toBe("Draft");
    expect(postStatus({ published: true, publishAt: "2026-03-05T10:00:01.000Z" }, now)).toBe("Scheduled");
    expect(postStatus({ published: true, publishAt: "2026-03-05T10:00:00.000Z" }, now)).toBe("Published");
    expect(postStatus({ published: true, publishAt: null }, now)).toBe("Published");
  });

  it("writes new posts in Markdown unless the form says otherwise", () => {
    expect(postForm.read(new FormData()).format).toBe("markdown");
  });
});

describe("a post's canonical URL", () => {
  const withCanonical = (value: string) => {
    const formData = new FormData();
    formData.set("canonicalUrl", value);
    const parsed = validateForm(postForm, postForm.read(formData));
    return parsed.success ? undefined : parsed.errors.canonicalUrl;
  };

  it("is optional, and else an absolute web address", () => {
    expect(withCanonical("")).toBeUndefined();
    expect(withCanonical("https://first.example/essays/soil")).toBeUndefined();
    expect(withCanonical("http://first.example/")).toBeUndefined();
  });

  it("refuses anything else with a message that says what it takes", () => {
    const message = "Canonical URL must be a full web address starting with http:// or https://";
    expect(withCanonical("/blog/soil")).toBe(message);
    expect(withCanonical("first.example/soil")).toBe(message);
    expect(withCanonical("javascript:alert(1)")).toBe(message);
    expect(withCanonical("ftp://first.example/soil")).toBe(message);
    expect(withCanonical(`https://first.example/${"a".repeat(2048)}`)).toBe(
      "Canonical URL must be at most 2,048 characters",
    );
  });
});

describe("a post's email state after a save", () => {
  const now = new Date("2026-03-05T10:00:00.000Z");
  const draft = { newsletter: "off" as const, published: false, publishAt: null };
  const live = { newsletter: "off" as const, published: true, publishAt: null };
  const later = { newsletter: "wanted" as const, published: true, publishAt: "2026-03-06T10:00:00.000Z" };
  const wanted = (post: typeof live | typeof draft) => ({ ...post, newsletter: "wanted" as const });

  it("takes the box while the post has never been public, where email is set up", () => {
    expect(newsletterAfterSave(undefined, wanted(live), true, now)).toBe("wanted");
    expect(newsletterAfterSave(draft, later, true, now)).toBe("wanted");
    expect(newsletterAfterSave(draft, wanted(draft), true, now)).toBe("wanted");
    expect(newsletterAfterSave(undefined, wanted(live), false, now)).toBe("closed");
    expect(newsletterAfterSave(undefined, wanted(draft), false, now)).toBe("off");
  });

  it("closes a post that becomes or was public without one, for good", () => {
    expect(newsletterAfterSave(undefined, live, true, now)).toBe("closed");
    expect(newsletterAfterSave(live, wanted(draft), true, now)).toBe("closed");
    expect(newsletterAfterSave({ ...live, newsletter: "closed" }, wanted(live), true, now)).toBe("closed");
  });

  it("never lets a sent post want another email", () => {
    expect(newsletterAfterSave({ ...live, newsletter: "sent" }, wanted(live), true, now)).toBe("sent");
    expect(newsletterAfterSave({ ...draft, newsletter: "sent" }, draft, true, now)).toBe("sent");
  });

  it("keeps the wish of a scheduled post whose time came before its tick", () => {
    const due = { ...later, publishAt: "2026-03-05T09:00:00.000Z" };
    expect(newsletterAfterSave(due, draft, true, now)).toBe("wanted");
  });
});
