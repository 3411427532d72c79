import { describe, expect, it } from "vitest";
import type { LiveTokenSummary } from "./dto";
import { liveTokenSummary } from "@/test/kit/live-token-summary";
import { pinOpenFirst, visibleTokens } from "./token-list-view";

const token = (id: string, state: LiveTokenSummary["state"], fields: Partial<LiveTokenSummary> = {}): LiveTokenSummary =>
  liveTokenSummary(id, { token: `TOK${id}`, state, reference: `REF-${id}`, maskedIdNumber: "GHA-•••••016-4", ...fields });

describe("the token list's view of today's tokens", () => {
  const tokens = [
    token("1", "successful"),
    token("2", "waiting"),
    token("3", "failed"),
    token("4", "invalid"),
    token("5", "in_progress"),
    token("6", "outcome_unknown", { token: null }),
    token("7", "expired", { maskedIdNumber: "GHA-•••••987-1", reference: "024 ••• 4567" }),
  ];

  it("pins the open tokens on top and keeps each part's order", () => {
    expect(pinOpenFirst(tokens).map((shown) => shown.id)).toEqual(["2", "5", "1", "3", "4", "6", "7"]);
  });

  it("filters by state: open, failed (with invalid), an unknown outcome", () => {
    expect(visibleTokens(tokens, "open", "").map((shown) => shown.id)).toEqual(["2", "5"]);
    expect(visibleTokens(tokens, "failed", "").map((shown) => shown.id)).toEqual(["3", "4"]);
    expect(visibleTokens(tokens, "outcome_unknown", "").map((shown) => shown.id)).toEqual(["6"]);
    expect(visibleTokens(tokens, "all", "")).toHaveLength(tokens.length);
  });

  it("finds a token by its code, its reference or the last digits of the ID, whatever the case and separators", () => {
    expect(visibleTokens(tokens, "all", "tok3").map((shown) => shown.id)).toEqual(["3"]);
    expect(visibleTokens(tokens, "all", "ref 5").map((shown) => shown.id)).toEqual(["5"]);
    expect(visibleTokens(tokens, "all", "987-1").map((shown) => shown.id)).toEqual(["7"]);
    expect(visibleTokens(tokens, "all", "4567").map((shown) => shown.id)).toEqual(["7"]);
    expect(visibleTokens(tokens, "open", "tok3")).toEqual([]);
    expect(visibleTokens(tokens, "all", "  ")).toHaveLength(tokens.length);
  });
});
