import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request id of the server action or route handler this code runs for, wherever it runs: a
 * module-level service (the upstream client, built once per process) cannot be handed the
 * request's logger, yet its log lines must be found by the id staff see in an error message.
 */
const requestIds = new AsyncLocalStorage<string>();

export function withRequestId<T>(requestId: string, run: () => T): T {
  return requestIds.run(requestId, run);
}

/** The current request's id; undefined outside one (the watcher, scripts). */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}
