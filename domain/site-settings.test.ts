import { describe, expect, it } from "vitest";
import { validateForm } from "./forms.ts";
import { emailSender, siteSettingsForm, timeZoneNames } from "./site-settings.ts";

const SAVED = {
  title: "Field Notes",
  description: "",
  aboutUrl: "https://notes.example/about",
  sourceUrl: "https://notes.example/source",
  postsPerPage: "10",
  timeZone: "UTC",
  footerText: "",
  homeHeadline: "",
  homeIntroduction: "",
  emailFromName: "",
  emailReplyTo: "",
  accentColor: "",
  bodyTypeface: "sans",
};

describe("the email settings", () => {
  it("are optional: a blank sender name and Reply-To save, and the sender is then the site's title", () => {
    const result = validateForm(siteSettingsForm, { ...SAVED, emailFromName: " ", emailReplyTo: "" });
    expect(result.success && result.data).toMatchObject({ emailFromName: "", emailReplyTo: "" });
    expect(result.success && emailSender(result.data)).toEqual({ name: "Field Notes", replyTo: undefined });
  });

  it("keep a sender name and a Reply-To address", () => {
    const result = validateForm(siteSettingsForm, {
      ...SAVED,
      emailFromName: " Ada at Field Notes ",
      emailReplyTo: " ada@notes.example ",
    });
    expect(result.success && emailSender(result.data)).toEqual({
      name: "Ada at Field Notes",
      replyTo: "ada@notes.example",
    });
  });

  it("refuse a sender name that could break the From header", () => {
    for (const name of ["Field\r\nBcc: x@evil.example", "Field\nNotes", 'Field "Notes"', "Field <Notes>"]) {
      expect(validateForm(siteSettingsForm, { ...SAVED, emailFromName: name })).toEqual({
        success: false,
        errors: { emailFromName: 'Sender name cannot hold line breaks, < > or "' },
      });
    }
    expect(validateForm(siteSettingsForm, { ...SAVED, emailFromName: "x".repeat(81) })).toEqual({
      success: false,
      errors: { emailFromName: "Sender name must be at most 80 characters" },
    });
  });

  it("refuse a Reply-To that is not one email address", () => {
    for (const address of ["not an address", "a@b.example, c@d.example", "a@b.example\r\nBcc: x@evil.example"]) {
      expect(validateForm(siteSettingsForm, { ...SAVED, emailReplyTo: address })).toEqual({
        success: false,
        errors: { emailReplyTo: "Reply-To must be a valid email address" },
      });
    }
  });
});

describe("the look settings", () => {
  it("default to the product's own look when a post leaves them out", () => {
    const { accentColor: _accent, bodyTypeface: _typeface, ...older } = SAVED;
    const result = validateForm(siteSettingsForm, siteSettingsForm.read(formDataOf(older)));
    expect(result.success && result.data).toMatchObject({ accentColor: "", bodyTypeface: "sans" });
  });
});

function formDataOf(values: Record<string, string>): FormData {
  const formData = new FormData();
  for (const [name, value] of Object.entries(values)) formData.append(name, value);
  return formData;
}

describe("the time zone", () => {
  it("is offered from a list that starts with UTC and holds the IANA names", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toEqual(expect.arrayContaining(["Europe/Paris", "America/New_York", "Asia/Tokyo"]));
    expect(new Set(names).size).toBe(names.length);
  });

  it("is checked on the server, refusing a name off the list in plain words", () => {
    expect(validateForm(siteSettingsForm, { ...SAVED, timeZone: "Europe/Paris" }).success).toBe(true);
    expect(validateForm(siteSettingsForm, { ...SAVED, timeZone: "Mars/Olympus_Mons" })).toEqual({
      success: false,
      errors: { timeZone: "Please choose a time zone from the list, such as Europe/Paris or UTC" },
    });
  });
});
