import { describe, expect, it } from "vitest";
import { nudge, onNudge } from "./nudges";

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
