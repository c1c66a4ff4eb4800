import { describe, expect, it } from "vitest";
import {
  accentContrastProblem,
  contrastRatio,
  darkThemeAccent,
  lookStylesheet,
  relativeLuminance,
} from "./site-look.ts";

describe("contrast maths", () => {
  it("gives the WCAG ratios of known pairs", () => {
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#000000", "#ffffff")).toBe(21);
    expect(contrastRatio("#ffffff", "#000000")).toBe(21);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(relativeLuminance("#ffffff")).toBe(1);
    expect(relativeLuminance("#000000")).toBe(0);
  });

  it("accepts the product's own indigo and a dark green", () => {
    expect(accentContrastProblem("#432dd7")).toBeUndefined();
    expect(accentContrastProblem("#1d6b3a")).toBeUndefined();
  });

  it("refuses a colour too light to read, in plain words with its ratio truncated and what to try", () => {
    // 4.47 : 1 truncates to 4.4, so a ratio just under 4.5 never reads "4.5".
    expect(accentContrastProblem("#777777")).toBe(
      "This colour is too light to read on white (4.4 : 1; it needs 4.5 : 1). Try a darker shade.",
    );
    expect(accentContrastProblem("#ffd400")).toBe(
      "This colour is too light to read on white (1.4 : 1; it needs 4.5 : 1). Try a darker shade.",
    );
  });

  it("derives the dark theme's accent by lightening, and it passes on the dark background", () => {
    expect(darkThemeAccent("#000000")).toBe("#8c8c8c");
    expect(contrastRatio(darkThemeAccent("#1d6b3a"), "#020618")).toBeGreaterThan(4.5);
  });
});

describe("lookStylesheet", () => {
  it("writes nothing for the product's own look", () => {
    expect(lookStylesheet({ accentColor: "", bodyTypeface: "sans" })).toBe("");
  });

  it("writes the accent scale and the typeface as custom properties on :root", () => {
    const css = lookStylesheet({ accentColor: "#1D6B3A", bodyTypeface: "serif" });
    expect(css).toMatch(/^:root\{.*\}$/);
    expect(css).toContain("--color-indigo-700:#1d6b3a");
    expect(css).toContain(`--color-indigo-300:${darkThemeAccent("#1d6b3a")}`);
    expect(css).toContain("--default-font-family:ui-serif");
    expect(css).not.toMatch(/[<>]/);
  });
});
