import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Ends a stopping instance's keep-alive connections as their answers go out (ADR 0024).
 *
 * At the signal Next stops accepting connections and waits for the open ones to close. A
 * connection the balancer keeps alive, though, stays open after its answer and carries the
 * balancer's next request, for as long as the balancer keeps using it: the instance goes on
 * serving while it should be gone, and whichever side closes it first may close it under a
 * request the balancer has just sent (nginx answers that with 502 when it cannot retry). So from
 * the signal on, every answer says `Connection: close` (those under way and those that arrive on a
 * kept connection), and the balancer sends its next request to another instance.
 *
 * It hears of each request through Node's `http.server.request.start` channel: Next owns the HTTP
 * server and hands the app no handle on it.
 */
type RequestStart = { request: IncomingMessage; response: ServerResponse; server: Server };

const requestStartChannel = "http.server.request.start";

export type ConnectionDrain = {
  /** At the signal: answers not yet sent close their connection, and idle connections close now. */
  closeConnections(): void;
  /** Stops listening to the channel (tests). */
  uninstall(): void;
};

export function installConnectionDrain(isDraining: () => boolean): ConnectionDrain {
  const unanswered = new Set<ServerResponse>();
  const servers = new Set<Server>();

  const onRequestStart = (message: unknown) => {
    const { response, server } = message as RequestStart;
    servers.add(server);
    if (isDraining()) {
      response.setHeader("connection", "close");
      return;
    }
    unanswered.add(response);
    response.once("close", () => unanswered.delete(response));
  };
  subscribe(requestStartChannel, onRequestStart);

  return {
    closeConnections() {
      for (const response of unanswered) {
        if (!response.headersSent) response.setHeader("connection", "close");
      }
      unanswered.clear();
      // Next's own close does this too; with NEXT_MANUAL_SIG_HANDLE it does not run.
      for (const server of servers) server.closeIdleConnections();
    },
    uninstall() {
      unsubscribe(requestStartChannel, onRequestStart);
    },
  };
}
