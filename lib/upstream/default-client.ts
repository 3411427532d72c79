import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { currentRequestId } from "@/lib/request-context";
import { createUpstreamClient, type SettledCall } from "./client";
import type { UpstreamClient } from "./types";

let defaultClient: UpstreamClient | undefined;

/** The client configured from this process's settings, built on first use so imports stay cheap. */
export function getUpstreamClient(): UpstreamClient {
  if (defaultClient === undefined) {
    const settings = env();
    defaultClient = createUpstreamClient({
      baseUrl: settings.UPSTREAM_BASE_URL,
      apiKey: settings.UPSTREAM_API_KEY,
      timeoutMs: settings.UPSTREAM_TIMEOUT_MS,
      issueTimeoutMs: settings.UPSTREAM_ISSUE_TIMEOUT_MS,
      logger: logger.child({ module: "upstream" }),
      requestIdOf: currentRequestId,
      onCallSettled: countCall,
    });
  }
  return defaultClient;
}

const endpointLabels: Record<SettledCall["endpoint"], string> = {
  fingerprintToken: "fingerprint_token",
  remoteToken: "remote_token",
  tokenState: "token_state",
  tokenResult: "token_result",
};

function countCall({ endpoint, outcome, durationMs }: SettledCall): void {
  const labels = { endpoint: endpointLabels[endpoint], outcome: outcome.toLowerCase() };
  const { upstreamCalls, upstreamCallSeconds } = metrics();
  upstreamCalls.inc(labels);
  upstreamCallSeconds.observe(labels, durationMs / 1000);
}
