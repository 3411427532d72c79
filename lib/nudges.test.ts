import { describe, expect, it } from "vitest";
import { idleWaitMs, nudge, onNudge } from "./nudges";

describe("nudges", () => {
  it("reach this process's listeners of the topic until they stop listening, and a failing listener fails nobody", () => {
    const heard: string[] = [];
    const stopA = onNudge("outbox", () => heard.push("a"));
    const stopBroken = onNudge("outbox", () => {
      throw new Error("broken listener");
    });
    const stopOther = onNudge("tokens", () => heard.push("tokens"));
    expect(() => nudge("outbox")).not.toThrow();
    expect(heard).toEqual(["a"]);
    stopA();
    stopBroken();
    nudge("outbox");
    nudge("tokens");
    expect(heard).toEqual(["a", "tokens"]);
    stopOther();
    nudge("risk");
  });
});

describe("idleWaitMs", () => {
  it("doubles from the base with each empty look, up to the bound, and is never below the base", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map((looks) => idleWaitMs(looks, 1_000, 10_000))).toEqual([1_000, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(idleWaitMs(9, 2_000, 500)).toBe(2_000);
  });
});
