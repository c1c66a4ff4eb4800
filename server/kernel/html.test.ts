import { describe, expect, it } from "vitest";
import { htmlToText } from "./html.ts";

describe("htmlToText", () => {
  it("separates blocks but not the edges of inline elements", () => {
    expect(
      htmlToText("<p>Boats on the <em>pond</em>, at <a href='/x'>dawn</a>.</p><p>Next (<code>npm</code>)</p>"),
    ).toBe("Boats on the pond, at dawn. Next (npm)");
  });

  it("drops scripts and styles and decodes entities", () => {
    expect(
      htmlToText("<style>p{}</style><p>Fish &amp; chips</p><script>alert(1)</script><li>one</li><li>two</li>"),
    ).toBe("Fish & chips one two");
  });
});
