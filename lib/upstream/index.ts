import "server-only";

export { createUpstreamClient, type UpstreamClientOptions, type UpstreamLogger } from "./client";
export { getUpstreamClient } from "./default-client";
export type {
  FingerprintToken,
  FingerprintTokenRequest,
  RemoteToken,
  RemoteTokenRequest,
  TokenResult,
  TokenState,
  UpstreamClient,
} from "./types";
