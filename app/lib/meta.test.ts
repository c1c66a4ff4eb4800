import { describe, expect, it } from "vitest";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { errorMeta, pageMeta, routeErrorMessage, SITE_DESCRIPTION } from "./meta";

describe("page meta", () => {
  it("names the site in the title and always has a description", () => {
    expect(pageMeta("About", "Who writes here")).toEqual([
      { title: "About | Inkwell" },
      { name: "description", content: "Who writes here" },
    ]);
    expect(pageMeta("Terms")[1]).toEqual({ name: "description", content: SITE_DESCRIPTION });
  });

  it("titles error pages with the route's message", () => {
    const notFound = new ErrorResponse(404, "Not Found", { message: "Post not found" });
    expect(routeErrorMessage(notFound)).toBe("Post not found");
    expect(errorMeta(notFound)[0]).toEqual({ title: "Post not found | Inkwell" });
    expect(routeErrorMessage(new ErrorResponse(404, "Not Found", null))).toBe("Page Not Found");
    expect(routeErrorMessage(new Error("database password is hunter2"))).toBe("Something went wrong");
  });
});
