import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createSpecApi } from "./api";
import { createControls } from "./controls";
import { createCustomerPages } from "./customer-pages";
import { createOperatorPages } from "./pages";
import { SandboxStore } from "./store";

export const DEFAULT_API_KEY = "sandbox-key";
export const DEFAULT_HOSTNAME = "127.0.0.1";

export interface SandboxAppOptions {
  apiKey?: string;
  store?: SandboxStore;
  /** Origin used in verification links; without it the origin of the request is used. */
  publicUrl?: () => string | undefined;
}

export function createSandboxApp(options: SandboxAppOptions = {}): { app: Hono; store: SandboxStore } {
  const store = options.store ?? new SandboxStore();
  const app = new Hono();
  app.onError((error, c) => {
    console.error("Sandbox error:", error);
    return c.json({ message: "Sandbox error", detail: error.message }, 500);
  });
  app.route(
    "/",
    createSpecApi({
      store,
      apiKey: options.apiKey ?? DEFAULT_API_KEY,
      resolvePublicUrl: (c) => options.publicUrl?.() ?? new URL(c.req.url).origin,
    }),
  );
  app.route("/", createControls(store));
  app.route("/", createOperatorPages(store));
  app.route("/", createCustomerPages(store));
  app.notFound((c) => c.json({ message: "Not Found" }, 404));
  return { app, store };
}

export interface RunningSandbox {
  url: string;
  port: number;
  store: SandboxStore;
  close: () => Promise<void>;
}

/** Listens on 127.0.0.1 (port 0 picks a free port, for tests) and resolves once listening. */
export function startSandbox(options: { port?: number; apiKey?: string; store?: SandboxStore } = {}): Promise<RunningSandbox> {
  let url: string | undefined;
  const { app, store } = createSandboxApp({ apiKey: options.apiKey, store: options.store, publicUrl: () => url });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: DEFAULT_HOSTNAME }, (info: AddressInfo) => {
      url = `http://${DEFAULT_HOSTNAME}:${info.port}`;
      resolve({
        url,
        port: info.port,
        store,
        close: () =>
          new Promise<void>((done) => {
            // Dropping every connection also releases calls held open by a "hang" fault.
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    }) as Server;
    server.once("error", reject);
  });
}
