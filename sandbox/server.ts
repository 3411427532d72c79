import { DEFAULT_API_KEY, startSandbox } from "./app";

const DEFAULT_PORT = 4010;

const port = Number(process.env.SANDBOX_PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
  process.exit(1);
}

const sandbox = await startSandbox({ port, apiKey: process.env.SANDBOX_API_KEY || DEFAULT_API_KEY });
console.log(`Sandbox listening on ${sandbox.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
