import { describe, expect, it } from "vitest";
import { ApiError, fieldErrors, fieldPath } from "./apiError";

describe("fieldPath", () => {
  it("drops the body/query prefix and joins with dots", () => {
    expect(fieldPath(["body", "factors", "servers"])).toBe("factors.servers");
    expect(fieldPath(["query", "limit"])).toBe("limit");
    expect(fieldPath(["body"])).toBe("");
    expect(fieldPath(["hosts", 0, "name"])).toBe("hosts.0.name");
  });
});

describe("fieldErrors", () => {
  const body = {
    detail: [
      { loc: ["body", "factors", "servers"], msg: "0 is outside the allowed range 1..16 servers" },
      { loc: ["body"], msg: "Value error, warmup_s + cooldown_s (10 s) must be shorter" },
      { loc: ["body", "name"], msg: "too short" },
      { loc: ["body", "name"], msg: "blank" },
    ],
  };

  it("keys 422 messages by field and strips pydantic's prefix", () => {
    expect(fieldErrors(new ApiError(422, body))).toEqual({
      "factors.servers": "0 is outside the allowed range 1..16 servers",
      "": "warmup_s + cooldown_s (10 s) must be shorter",
      name: "too short; blank",
    });
  });

  it("returns nothing for other statuses, non-API errors and string details", () => {
    expect(fieldErrors(new ApiError(409, body))).toEqual({});
    expect(fieldErrors(new Error("x"))).toEqual({});
    expect(fieldErrors(new ApiError(422, { detail: "bad" }))).toEqual({});
    expect(fieldErrors(null)).toEqual({});
  });
});

describe("ApiError message", () => {
  it("uses the server's detail string, the 422 list, or the status", () => {
    expect(new ApiError(404, { detail: "Experiment not found" }).message).toBe(
      "Experiment not found",
    );
    expect(new ApiError(422, { detail: [{ loc: ["body", "name"], msg: "blank" }] }).message).toBe(
      "name: blank",
    );
    expect(new ApiError(500, "oops").message).toBe("Request failed (HTTP 500)");
    expect(new ApiError(0, undefined).message).toBe("The server could not be reached");
  });
});
