import { describe, expect, it } from "vitest";
import {
  DEFAULT_FEDIVERSE_SETTINGS,
  fediverseHandle,
  fediverseSettingsForm,
  fediverseSettingsSchema,
  isBlockedBy,
  parseBlockedList,
} from "./fediverse.ts";
import { validateForm } from "./forms.ts";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("the fediverse settings", () => {
  it("default to the handle blog, follows accepted at once and nobody blocked", () => {
    expect(fediverseSettingsSchema.parse({})).toEqual(DEFAULT_FEDIVERSE_SETTINGS);
    expect(DEFAULT_FEDIVERSE_SETTINGS).toEqual({ handle: "blog", approveFollowsByHand: false, blocked: "" });
  });

  it("take a handle of letters and digits only", () => {
    const read = (handle: string) => validateForm(fediverseSettingsForm, fediverseSettingsForm.read(form({ handle })));
    expect(read(" Notes2026 ")).toEqual({
      success: true,
      data: { handle: "Notes2026", approveFollowsByHand: false, blocked: "" },
    });
    for (const wrong of ["", "my-blog", "blog@example.com", "ü", "a".repeat(31)]) {
      expect(read(wrong)).toEqual({
        success: false,
        errors: { handle: "The handle must be 1 to 30 letters or digits" },
      });
    }
  });

  it("read the checkbox and keep the blocked list one entry a line, blank lines dropped", () => {
    const result = validateForm(
      fediverseSettingsForm,
      fediverseSettingsForm.read(
        form({
          handle: "blog",
          approveFollowsByHand: "on",
          blocked: "\r\n spam.example \r\n\r\nhttps://x.example/users/troll\r\n",
        }),
      ),
    );
    expect(result).toEqual({
      success: true,
      data: { handle: "blog", approveFollowsByHand: true, blocked: "spam.example\nhttps://x.example/users/troll" },
    });
  });

  it("name the line of the blocked list that is neither a domain nor an address", () => {
    const result = validateForm(
      fediverseSettingsForm,
      fediverseSettingsForm.read(form({ handle: "blog", blocked: "spam.example\n\nnot a domain" })),
    );
    expect(result).toEqual({
      success: false,
      errors: {
        blocked: 'Line 3 ("not a domain") is neither a domain (example.social) nor an actor address (https://…)',
      },
    });
  });
});

describe("the blocked list", () => {
  const entries = parseBlockedList("Spam.Example\n@bad.example\n*.worse.example\nhttps://ok.example/users/troll");

  it("blocks a domain and every server under it, whatever the case", () => {
    expect(isBlockedBy(entries, new URL("https://spam.example/users/a"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://EU.spam.example/users/a"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://bad.example/@a"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://worse.example/@a"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://notspam.example/users/a"))).toBe(false);
  });

  it("blocks a domain however its host is written: a trailing dot, capitals, Unicode or punycode", () => {
    const blocked = parseBlockedList("spam.example\nBücher.example.\nhttps://Ok.Example./users/troll");
    expect(isBlockedBy(blocked, new URL("https://spam.example./users/a"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://EU.Spam.Example../users/a"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://xn--bcher-kva.example/users/a"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://eu.bücher.example./users/a"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://ok.example./users/troll"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://ok.example/users/troll"))).toBe(true);
    expect(isBlockedBy(blocked, new URL("https://spam.example.net/users/a"))).toBe(false);
  });

  it("is stored with each host in one form, so what is saved is what is matched", () => {
    const result = fediverseSettingsSchema.safeParse({
      blocked: "Spam.Example.\n*.Bücher.example\n@eu.spam.example\nhttps://Ok.Example./users/troll#main-key",
    });
    expect(result.data?.blocked).toBe(
      "spam.example\nxn--bcher-kva.example\neu.spam.example\nhttps://ok.example/users/troll",
    );
  });

  it("blocks one actor by its address and leaves the rest of its server alone", () => {
    expect(isBlockedBy(entries, new URL("https://ok.example/users/troll"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://ok.example/users/troll#main-key"))).toBe(true);
    expect(isBlockedBy(entries, new URL("https://ok.example/users/friend"))).toBe(false);
  });
});

describe("the handle to share", () => {
  it("is the handle at the site's host", () => {
    expect(fediverseHandle("blog", "https://example.com/")).toBe("@blog@example.com");
    expect(fediverseHandle("notes", "http://localhost:3000")).toBe("@notes@localhost:3000");
  });
});
