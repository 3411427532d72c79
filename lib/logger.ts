import "server-only";
import pino from "pino";
import { env } from "./env";

/**
 * The one logger. Redaction is the last line of defence: code must still never put the API key
 * or a full ID number into a log call, and tests grep the log to prove it.
 */
const redactedPaths = [
  "headers['x-api-auth']",
  "*.headers['x-api-auth']",
  "apiKey",
  "*.apiKey",
  "password",
  "*.password",
  "idNumber",
  "*.idNumber",
];

/**
 * Builds a logger with the app's configuration. Tests pass their own destination so they can read
 * what was written, through the same redaction the app uses.
 */
export function createLogger(
  options: { level?: pino.LevelWithSilent; destination?: pino.DestinationStream } = {},
) {
  return pino(
    {
      level: options.level ?? env().LOG_LEVEL,
      base: { service: "veridesk" },
      redact: { paths: redactedPaths, censor: "[redacted]" },
    },
    options.destination,
  );
}

export const logger = createLogger();

export type Logger = typeof logger;
