import { describe, expect, it } from "vitest";
import { logLevelForStatus } from "./http-logging.ts";

describe("logLevelForStatus", () => {
  it("logs only the server's own failures as errors", () => {
    expect(logLevelForStatus(500)).toBe("error");
    expect(logLevelForStatus(503)).toBe("error");
    expect(logLevelForStatus(200, true)).toBe("error");
  });

  it("logs a client's mistakes as warnings, and missing pages and refused methods as information", () => {
    expect(logLevelForStatus(400)).toBe("warn");
    expect(logLevelForStatus(415)).toBe("warn");
    expect(logLevelForStatus(429)).toBe("warn");
    expect(logLevelForStatus(404)).toBe("info");
    expect(logLevelForStatus(405)).toBe("info");
    expect(logLevelForStatus(400, true)).toBe("warn");
  });

  it("logs a part of an API the blog does not speak (501) as information, unless something broke", () => {
    expect(logLevelForStatus(501)).toBe("info");
    expect(logLevelForStatus(501, true)).toBe("error");
  });

  it("logs answered requests as information", () => {
    expect(logLevelForStatus(200)).toBe("info");
    expect(logLevelForStatus(302)).toBe("info");
  });
});
