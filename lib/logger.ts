import "server-only";
import pino from "pino";
import { env } from "./env";
import { maskFreeText } from "./pii/mask";

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
 * Free text a customer's phone or card number may be in (the teller's reference, the service's
 * words about a result): never censored away, which would hide what an operator needs, but put
 * through the one free-text masking rule every other output uses (lib/pii/mask.ts).
 */
const freeTextPaths = ["reference", "*.reference", "referenceId", "*.referenceId", "phoneNumber", "*.phoneNumber", "errorText", "*.errorText"];

function censorOf(value: unknown, path: string[]): unknown {
  const key = path.at(-1) ?? "";
  if (freeTextPaths.includes(key) || freeTextPaths.includes(`*.${key}`)) return typeof value === "string" ? maskFreeText(value) : value;
  return "[redacted]";
}

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
      redact: { paths: [...redactedPaths, ...freeTextPaths], censor: censorOf },
    },
    options.destination,
  );
}

export const logger = createLogger();

export type Logger = typeof logger;
