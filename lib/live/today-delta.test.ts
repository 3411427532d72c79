import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LiveTokenSummary, TodayTokensResponse } from "./dto";
import { liveTokenSummary } from "@/test/kit/live-token-summary";
import { mergeTodayAnswer, todayListUrl, unchangedTodayList } from "./today-delta";

const token = (id: string, stateLabel = "Waiting") => liveTokenSummary(id, { stateLabel });

const list = (version: string, tokens: LiveTokenSummary[]): TodayTokensResponse => ({ serverNow: "2026-11-24T10:00:00.000Z", version, branchName: "Accra", tokens });

describe("merging a today-list answer", () => {
  it("replaces the held list with a whole list", () => {
    const whole = list("v2", [token("b")]);
    expect(mergeTodayAnswer(list("v1", [token("a")]), whole)).toBe(whole);
    expect(mergeTodayAnswer(undefined, whole)).toBe(whole);
  });

  it("applies a delta: changed tokens replaced, new ones added, missing ones dropped, the server's order kept", () => {
    const held = list("v1", [token("a"), token("b"), token("c")]);
    const merged = mergeTodayAnswer(held, {
      serverNow: "2026-11-24T10:00:05.000Z",
      version: "v2",
      branchName: "Accra",
      since: "v1",
      order: ["d", "a", "c"],
      changed: [token("d"), token("c", "In progress")],
    });
    expect(merged?.version).toBe("v2");
    expect(merged?.serverNow).toBe("2026-11-24T10:00:05.000Z");
    expect(merged?.tokens.map((t) => [t.id, t.stateLabel])).toEqual([
      ["d", "Waiting"],
      ["a", "Waiting"],
      ["c", "In progress"],
    ]);
  });

  it("refuses a delta for another version than the one held, or naming a token it did not send", () => {
    const held = list("v1", [token("a")]);
    expect(mergeTodayAnswer(held, { serverNow: "x", version: "v3", branchName: null, since: "v2", order: ["a"], changed: [] })).toBeNull();
    expect(mergeTodayAnswer(undefined, { serverNow: "x", version: "v3", branchName: null, since: "v1", order: ["a"], changed: [] })).toBeNull();
    expect(mergeTodayAnswer(held, { serverNow: "x", version: "v2", branchName: null, since: "v1", order: ["a", "zz"], changed: [] })).toBeNull();
  });

  it("a 304 keeps the list and takes the answer's clock", () => {
    const held = list("v1", [token("a")]);
    expect(unchangedTodayList(held, "2026-11-24T11:00:00.000Z")).toEqual({ ...held, serverNow: "2026-11-24T11:00:00.000Z" });
    expect(unchangedTodayList(held, null)).toBe(held);
  });

  it("names the held version in the poll URL", () => {
    expect(todayListUrl(undefined)).toBe("/api/tokens?scope=today");
    expect(todayListUrl(list("abc_-1", []))).toBe("/api/tokens?scope=today&since=abc_-1");
    expect(todayListUrl(list("abc_-1", []), { isWatching: false })).toBe("/api/tokens?scope=today&since=abc_-1&watch=0");
    expect(todayListUrl(undefined, { isWatching: false })).toBe("/api/tokens?scope=today&watch=0");
  });

  it("a delta computed from any held list and any new list merges into exactly the new list", () => {
    const ids = fc.uniqueArray(fc.constantFrom<string>("a", "b", "c", "d", "e", "f", "g"), { maxLength: 7 });
    fc.assert(
      fc.property(ids, ids, fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }), (before, after, changes) => {
        const held = list("v1", before.map((id) => token(id)));
        const next = after.map((id, index) => (changes[index] ? token(id, "Changed") : token(id)));
        const heldIds = new Set(before);
        const changed = next.filter((t) => !heldIds.has(t.id) || t.stateLabel === "Changed");
        const merged = mergeTodayAnswer(held, { serverNow: "n", version: "v2", branchName: "Accra", since: "v1", order: after, changed });
        expect(merged?.tokens).toEqual(next);
      }),
    );
  });
});
