import { describe, expect, it } from "vitest";
import { tokenStates } from "@/lib/tokens/state";
import { demoFormulaReference, demoKnownCustomer, planDemoData } from "./plan";

const now = new Date("2026-11-20T11:00:00.000Z");

describe("demo data plan", () => {
  const plan = planDemoData({ now, totalTokens: 3_000 });
  const tokens = [...plan.tokens()];

  it("is the same for the same seed", () => {
    const again = [...planDemoData({ now, totalTokens: 3_000 }).tokens()];
    expect(again).toEqual(tokens);
    expect(plan.tokens().next().value).toEqual(tokens[0]);
  });

  it("has several branches, each with tellers, and every token traced to one of them", () => {
    expect(plan.branches.length).toBeGreaterThanOrEqual(4);
    const tellerKeys = new Set(plan.tellers.map((teller) => teller.key));
    expect(new Set(tokens.map((token) => token.branchCode)).size).toBe(plan.branches.length);
    for (const token of tokens) {
      expect(tellerKeys.has(token.tellerKey)).toBe(true);
      expect(plan.tellers.find((teller) => teller.key === token.tellerKey)?.branchCode).toBe(token.branchCode);
    }
  });

  it("has tokens in every state, and attempts that issued nothing", () => {
    const states = new Set(tokens.map((token) => token.state));
    for (const state of tokenStates) expect(states, state).toContain(state);
    expect(tokens.some((token) => token.outcome === "rejected")).toBe(true);
    expect(tokens.some((token) => token.outcome === "failed_upstream")).toBe(true);
  });

  it("spreads tokens over the 30 days before now, in creation order, never after now", () => {
    const first = tokens[0]!.createdAt.getTime();
    const last = tokens.at(-1)!.createdAt.getTime();
    expect(now.getTime() - first).toBeGreaterThan(25 * 86_400_000);
    expect(last).toBeLessThanOrEqual(now.getTime());
    for (let index = 1; index < tokens.length; index++) {
      expect(tokens[index]!.createdAt.getTime()).toBeGreaterThanOrEqual(tokens[index - 1]!.createdAt.getTime());
    }
  });

  it("keeps facts consistent with the state", () => {
    for (const token of tokens) {
      if (token.outcome !== "issued") {
        expect(token.token).toBeNull();
        continue;
      }
      expect(token.issuedAt!.getTime()).toBeGreaterThan(token.createdAt.getTime());
      if (token.state === "successful" || token.state === "failed") {
        expect(token.result?.status).toBe(token.state === "successful" ? "SUCCESSFUL" : "FAILED");
        expect(token.finishedAt!.getTime()).toBeGreaterThan(token.usedAt!.getTime());
        expect(token.finishedAt!.getTime()).toBeLessThanOrEqual(now.getTime());
      } else {
        expect(token.result).toBeNull();
      }
      if (token.state === "waiting") expect(now.getTime() - token.issuedAt!.getTime()).toBeLessThan(15 * 60_000);
    }
    expect(new Set(tokens.map((token) => token.token).filter(Boolean)).size).toBe(tokens.filter((token) => token.token).length);
  });

  it("has mostly successful outcomes, with a realistic share of the others", () => {
    const finished = tokens.filter((token) => token.state !== null);
    const share = (state: string) => finished.filter((token) => token.state === state).length / finished.length;
    expect(share("successful")).toBeGreaterThan(0.45);
    expect(share("successful")).toBeLessThan(0.8);
    expect(share("expired")).toBeGreaterThan(0.05);
    expect(share("failed")).toBeGreaterThan(0.03);
  });

  it("includes the known customer three times in Kumasi, and a formula-like reference", () => {
    const known = tokens.filter((token) => token.idNumber === demoKnownCustomer.idNumber);
    expect(known).toHaveLength(demoKnownCustomer.tokenCount);
    expect(known.every((token) => token.branchCode === "KUM")).toBe(true);
    expect(tokens.some((token) => token.referenceId === demoFormulaReference)).toBe(true);
  });

  it("generates 200 000 tokens quickly without holding them", { timeout: 30_000 }, () => {
    const big = planDemoData({ now, totalTokens: 200_000, days: 180, tellersPerBranch: 8 });
    const started = performance.now();
    let count = 0;
    for (const _token of big.tokens()) count++;
    expect(count).toBe(200_000);
    // About 2 s alone; generous for a loaded CI machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
