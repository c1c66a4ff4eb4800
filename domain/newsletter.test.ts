import { describe, expect, it } from "vitest";
import { validateForm } from "./forms.ts";
import { normalizeEmail, subscribeForm } from "./newsletter.ts";

describe("the subscribe form", () => {
  it("keeps an address trimmed, with its domain lower-cased and its mailbox as typed", () => {
    expect(normalizeEmail("  Ada.Lovelace@Example.COM\t")).toBe("Ada.Lovelace@example.com");
    expect(validateForm(subscribeForm, { email: " Reader@Mail.Example " })).toEqual({
      success: true,
      data: { email: "Reader@mail.example" },
    });
  });

  it("says what is wrong with an address", () => {
    expect(validateForm(subscribeForm, { email: "  " })).toEqual({
      success: false,
      errors: { email: "Please enter an email address" },
    });
    expect(validateForm(subscribeForm, { email: "not an address" })).toEqual({
      success: false,
      errors: { email: "Please enter a valid email address" },
    });
    expect(validateForm(subscribeForm, { email: `${"a".repeat(250)}@example.com` })).toEqual({
      success: false,
      errors: { email: "Email must be at most 254 characters" },
    });
  });
});
