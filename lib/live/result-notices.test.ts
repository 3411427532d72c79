import { describe, expect, it } from "vitest";
import type { LiveTokenSummary } from "./dto";
import { newNoticeWatch, tokensThatEnded } from "./result-notices";
import { liveTokenSummary } from "@/test/kit/live-token-summary";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString();

function token(id: string, { createdAt = at(0), finishedAt = null as string | null, isFinal = false, isMine = true } = {}): LiveTokenSummary {
  return liveTokenSummary(id, { createdAt, issuedAt: createdAt, finishedAt, isFinal, isMine, ...(isFinal ? { state: "successful", stateLabel: "Successful" } : {}) });
}

const ids = (tokens: LiveTokenSummary[]) => tokens.map((ended) => ended.id);

describe("which of the teller's tokens ended", () => {
  it("says nothing of what the first look finds, open or ended", () => {
    const watch = newNoticeWatch();
    expect(tokensThatEnded(watch, [token("open"), token("done", { isFinal: true, finishedAt: at(1) })], at(5))).toEqual([]);
  });

  it("names a token seen open and now final, once", () => {
    const watch = newNoticeWatch();
    tokensThatEnded(watch, [token("a")], at(5));
    expect(ids(tokensThatEnded(watch, [token("a", { isFinal: true, finishedAt: at(6) })], at(6)))).toEqual(["a"]);
    expect(tokensThatEnded(watch, [token("a", { isFinal: true, finishedAt: at(6) })], at(7))).toEqual([]);
  });

  it("names a token never seen open when it was issued after the looking began (it ended between two polls)", () => {
    const watch = newNoticeWatch();
    tokensThatEnded(watch, [], at(5));
    expect(ids(tokensThatEnded(watch, [token("quick", { createdAt: at(6), isFinal: true, finishedAt: at(7) })], at(8)))).toEqual(["quick"]);
  });

  it("names a token first seen final that finished after the looking began, but not one that ended before it", () => {
    const watch = newNoticeWatch();
    tokensThatEnded(watch, [], at(5));
    const later = [token("after", { isFinal: true, finishedAt: at(6) }), token("before", { isFinal: true, finishedAt: at(4) })];
    expect(ids(tokensThatEnded(watch, later, at(7)))).toEqual(["after"]);
  });

  it("leaves other tellers' tokens alone", () => {
    const watch = newNoticeWatch();
    tokensThatEnded(watch, [token("theirs", { isMine: false })], at(5));
    expect(tokensThatEnded(watch, [token("theirs", { isMine: false, isFinal: true, finishedAt: at(6) })], at(6))).toEqual([]);
  });
});
