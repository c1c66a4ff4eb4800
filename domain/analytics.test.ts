import { describe, expect, it } from "vitest";
import {
  analyticsSettingsSchema,
  dayAndHourIn,
  nameSource,
  readCampaign,
  referrerHost,
  screenClass,
  splitBeaconPath,
} from "./analytics.ts";

describe("analytics settings", () => {
  it("counts by default and keeps raw events 30 days", () => {
    expect(analyticsSettingsSchema.parse({})).toEqual({ enabled: true, retentionDays: 30 });
  });

  it("refuses a retention outside 1 to 3,650 days", () => {
    expect(analyticsSettingsSchema.safeParse({ enabled: true, retentionDays: "0" }).success).toBe(false);
    expect(analyticsSettingsSchema.safeParse({ enabled: true, retentionDays: "3651" }).success).toBe(false);
    expect(analyticsSettingsSchema.parse({ enabled: false, retentionDays: "90" })).toEqual({
      enabled: false,
      retentionDays: 90,
    });
  });
});

describe("referrers", () => {
  it("keeps only the host, without www, and nothing for this site or a non-web address", () => {
    expect(referrerHost("https://www.example.org/a/b?q=secret", "blog.test")).toBe("example.org");
    expect(referrerHost("https://blog.test/other-post", "blog.test")).toBeNull();
    expect(referrerHost("android-app://com.slack", "blog.test")).toBeNull();
    expect(referrerHost("not a url", "blog.test")).toBeNull();
    expect(referrerHost("", "blog.test")).toBeNull();
  });

  it("names search engines and social sites from a short list, other hosts stay hosts", () => {
    expect(nameSource("google.com")).toBe("Google");
    expect(nameSource("news.google.com")).toBe("Google");
    expect(nameSource("google.co.uk")).toBe("Google");
    expect(nameSource("l.facebook.com")).toBe("Facebook");
    expect(nameSource("t.co")).toBe("Twitter");
    expect(nameSource("mastodon.social")).toBe("Mastodon");
    expect(nameSource("news.ycombinator.com")).toBe("Hacker News");
    expect(nameSource("friend.example")).toBe("friend.example");
    expect(nameSource("google.example.org")).toBe("google.example.org");
  });

  it("reads the utm parameters when present", () => {
    expect(readCampaign("?utm_source=newsletter&utm_medium=email&utm_campaign=spring")).toEqual({
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "spring",
    });
    expect(readCampaign("?page=2")).toEqual({ utmSource: null, utmMedium: null, utmCampaign: null });
  });
});

describe("the beacon's path", () => {
  it("keeps the path, reads the query for its utm parameters, drops the fragment", () => {
    expect(splitBeaconPath("/blog/hello?utm_source=x#comments")).toEqual({
      path: "/blog/hello",
      search: "?utm_source=x",
    });
    expect(splitBeaconPath("/")).toEqual({ path: "/", search: "" });
  });

  it("never reads a path as another host, and drops what a database cannot store", () => {
    expect(splitBeaconPath("/\\\\evil.example/x").path).toBe("/\\\\evil.example/x");
    expect(splitBeaconPath("/a\u0000b\u0007c\ud800").path).toBe("/abc\ufffd");
    expect(splitBeaconPath(`/${"a".repeat(600)}`).path).toHaveLength(512);
  });
});

describe("counting units", () => {
  it("classes a viewport as small, medium or large", () => {
    expect([320, 639, 640, 1023, 1024, 2560].map(screenClass)).toEqual([
      "small",
      "small",
      "medium",
      "medium",
      "large",
      "large",
    ]);
  });

  it("counts a day and an hour in the site's time zone", () => {
    const instant = new Date("2026-03-01T23:30:00Z");
    expect(dayAndHourIn(instant, "UTC")).toEqual({ day: "2026-03-01", hour: "2026-03-01T23" });
    expect(dayAndHourIn(instant, "Europe/Paris")).toEqual({ day: "2026-03-02", hour: "2026-03-02T00" });
    expect(dayAndHourIn(instant, "America/New_York")).toEqual({ day: "2026-03-01", hour: "2026-03-01T18" });
  });
});
