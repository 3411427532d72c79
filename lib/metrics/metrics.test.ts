import { describe, expect, it } from "vitest";
import { metrics, veridesksMetricNames } from "./index";

describe("the metrics registry", () => {
  it("is one per process, however many bundles ask for it", () => {
    expect(metrics()).toBe(metrics());
  });

  it("exposes every documented name, with its help line, and the process defaults under veridesk_", async () => {
    const { registry, tokensIssued, signInFailures } = metrics();
    tokensIssued.inc({ kind: "fingerprint", outcome: "issued" });
    signInFailures.inc({ reason: "wrong_password" });
    const text = await registry.metrics();
    for (const name of veridesksMetricNames) expect(text).toContain(`# HELP ${name} `);
    expect(text).toContain('veridesk_tokens_issued_total{kind="fingerprint",outcome="issued"} 1');
    expect(text).toContain('veridesk_sign_in_failures_total{reason="wrong_password"} 1');
    expect(text).toContain("veridesk_process_cpu_seconds_total");
  });
});
