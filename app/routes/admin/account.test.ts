import { describe, expect, it, vi } from "vitest";
import {
  createRouteTestContext,
  postForm,
  routeArgs,
  settle,
  TEST_ADMIN,
} from "../../../tests/support/route-context.ts";
import { DatabaseUnavailableError } from "#domain/errors.ts";
import { action } from "./account";

type ActionArgs = Parameters<typeof action>[0];

function changeDisplayName(displayName: string, updateDisplayName = vi.fn(() => Promise.resolve())) {
  const { context, logger } = createRouteTestContext({ users: { updateDisplayName } }, TEST_ADMIN);
  const request = postForm("http://blog.test/admin/account", { intent: "change-display-name", displayName });
  return { outcome: settle(() => action(routeArgs(request, context) as ActionArgs)), updateDisplayName, logger };
}

describe("the display-name form", () => {
  it("saves the trimmed name for the signed-in account and says so", async () => {
    const { outcome, updateDisplayName } = changeDisplayName("  Ada Lovelace ");
    expect(await outcome).toMatchObject({
      status: 200,
      body: { values: { displayName: "Ada Lovelace" }, errors: {}, notice: "Display name saved." },
    });
    expect(updateDisplayName).toHaveBeenCalledWith(TEST_ADMIN, "Ada Lovelace");
  });

  it("refuses an empty or overlong name with a 400 on the field, keeping what was typed", async () => {
    const empty = changeDisplayName("   ");
    expect(await empty.outcome).toMatchObject({
      status: 400,
      body: { errors: { displayName: "Please enter a display name" } },
    });
    const long = changeDisplayName("x".repeat(81));
    expect(await long.outcome).toMatchObject({
      status: 400,
      body: {
        values: { displayName: "x".repeat(81) },
        errors: { displayName: "Display name must be at most 80 characters" },
      },
    });
    expect(empty.updateDisplayName).not.toHaveBeenCalled();
    expect(long.updateDisplayName).not.toHaveBeenCalled();
  });

  it("answers a database outage with a 503 on the field and one log line", async () => {
    const { outcome, logger } = changeDisplayName(
      "Ada",
      vi.fn(() => Promise.reject(new DatabaseUnavailableError())),
    );
    expect(await outcome).toMatchObject({
      status: 503,
      body: { values: { displayName: "Ada" }, errors: { displayName: "That did not work. Please try again." } },
    });
    expect(logger.error).toHaveBeenCalledOnce();
  });
});
