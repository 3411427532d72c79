import { describe, expect, it } from "vitest";
import { readServiceComplaint, toServiceError } from "./service-errors";
import type { UpstreamReply } from "./send-request";

const keepText = (text: string) => text;

function jsonReply(status: number, value: unknown): UpstreamReply {
  return { status, contentType: "application/json", body: { kind: "json", value } };
}

describe("readServiceComplaint", () => {
  it.each<[string, unknown, { message?: string; fieldErrors: Record<string, string[]> }]>([
    [
      "errors as lists",
      { message: "Validation failed", errors: { phonenumber: ["is required", "must be 10 digits"] } },
      { message: "Validation failed", fieldErrors: { phonenumber: ["is required", "must be 10 digits"] } },
    ],
    ["errors as strings", { errors: { dob: "must be YYYY-MM-DD" } }, { fieldErrors: { dob: ["must be YYYY-MM-DD"] } }],
    [
      "errors as a list of field objects",
      { errors: [{ field: "voterid", message: "unknown" }, { param: "email", msg: "invalid" }, "check the form"] },
      { message: "check the form", fieldErrors: { voterid: ["unknown"], email: ["invalid"] } },
    ],
    ["a message only", { message: "Bad request" }, { message: "Bad request", fieldErrors: {} }],
    ["a responsemessage only", { responsemessage: "Invalid id_type" }, { message: "Invalid id_type", fieldErrors: {} }],
    ["messages that are not text", { message: 42, errors: { email: [null, 3] } }, { fieldErrors: {} }],
    ["a JSON array", ["oops"], { fieldErrors: {} }],
  ])("reads %s", (_shape, body, expected) => {
    expect(readServiceComplaint(jsonReply(422, body), keepText)).toEqual(expected);
  });

  it("reads nothing from a body that is not JSON", () => {
    const reply: UpstreamReply = { status: 400, contentType: "text/html", body: { kind: "html" } };
    expect(readServiceComplaint(reply, keepText)).toEqual({ fieldErrors: {} });
  });
});

describe("toServiceError", () => {
  it.each([
    [401, "UPSTREAM_UNAUTHORIZED"],
    [403, "UPSTREAM_UNAUTHORIZED"],
    [400, "UPSTREAM_REJECTED"],
    [404, "UPSTREAM_REJECTED"],
    [422, "UPSTREAM_REJECTED"],
    [429, "UPSTREAM_RATE_LIMITED"],
    [500, "UPSTREAM_SERVER_ERROR"],
    [504, "UPSTREAM_SERVER_ERROR"],
    [304, "UPSTREAM_BAD_RESPONSE"],
  ])("maps %i to %s", (status, code) => {
    expect(toServiceError(jsonReply(status, {}), "GET /x", keepText).code).toBe(code);
  });

  it("keeps the catalog copy for the teller when field errors explain the refusal", () => {
    const error = toServiceError(jsonReply(422, { message: "Validation failed", errors: { email: ["invalid"] } }), "POST /x", keepText);
    expect(error.userMessage).toBe("The verification service refused the request. Check the details and try again.");
    expect(error.fieldErrors).toEqual({ email: ["invalid"] });
    expect(error.message).toContain("Validation failed");
  });
});
