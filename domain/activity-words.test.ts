import { describe, expect, it } from "vitest";
import { describeSettingsChange } from "./activity-words.ts";

describe("a settings change in the activity log", () => {
  it("reads the changed fields as words", () => {
    expect(describeSettingsChange("accentColor")).toBe("Changed the accent colour");
    expect(describeSettingsChange("footerText, accentColor")).toBe("Changed the footer text and the accent colour");
    expect(describeSettingsChange("title, timeZone, logo")).toBe("Changed the site title, the time zone and the logo");
    expect(describeSettingsChange("fediverse approveFollowsByHand")).toBe(
      "Changed whether followers are approved by hand",
    );
  });

  it("spells out a field it has no words for, and says when nothing changed", () => {
    expect(describeSettingsChange("newsletterFooterNote")).toBe("Changed the newsletter footer note");
    expect(describeSettingsChange("")).toBe("Saved the settings without changing any");
  });
});
