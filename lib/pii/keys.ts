import "server-only";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, type Env } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * The two keys protecting customer data at rest (ADR 0006):
 * - the encryption key (AES-256-GCM) for ID numbers, dates of birth and e-mail addresses;
 * - the index key (HMAC-SHA-256) for the blind index that finds an exact ID number, and for the
 *   request fingerprints of idempotent submits, without storing anything reversible.
 *
 * Production: both come from the environment, and nothing customer-related runs without them.
 * Local and test runs: when unset, a pair is generated once and kept in a file beside the
 * embedded database (`.data/pii-keys.json`, mode 0600), so data written yesterday still decrypts.
 */

export type PiiKeys = {
  encryptionKey: Buffer;
  indexKey: Buffer;
  /** Short, non-secret name of the encryption key, stored with each ciphertext. */
  encryptionKeyId: string;
};

type KeyFile = { encryptionKey: string; indexKey: string; createdAt: string };

const keyFileName = "pii-keys.json";

export function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
}

/** First 8 hex digits of SHA-256 of the key: tells keys apart without revealing them. */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** Where a local or test run keeps its generated keys: next to the PGlite data directory. */
export function keyFilePath(settings: Pick<Env, "PGLITE_DATA_DIR">): string {
  return path.join(path.dirname(path.resolve(settings.PGLITE_DATA_DIR)), keyFileName);
}

export function resolvePiiKeys(settings: Env): PiiKeys {
  const fromEnv = settings.PII_ENCRYPTION_KEY !== undefined && settings.PII_INDEX_KEY !== undefined;
  if (!fromEnv && settings.APP_ENV === "production") {
    throw new AppError(
      "CONFIGURATION",
      "PII_ENCRYPTION_KEY and PII_INDEX_KEY are required when APP_ENV=production (32 random bytes each, base64 or hex)",
    );
  }
  if (settings.PII_ENCRYPTION_KEY !== undefined !== (settings.PII_INDEX_KEY !== undefined)) {
    throw new AppError("CONFIGURATION", "set both PII_ENCRYPTION_KEY and PII_INDEX_KEY, or neither (local runs only)");
  }
  const pair = fromEnv
    ? { encryptionKey: decodeKey(settings.PII_ENCRYPTION_KEY!), indexKey: decodeKey(settings.PII_INDEX_KEY!) }
    : readOrCreateKeyFile(keyFilePath(settings));
  if (pair.encryptionKey.equals(pair.indexKey)) {
    throw new AppError("CONFIGURATION", "PII_ENCRYPTION_KEY and PII_INDEX_KEY must be different keys");
  }
  return { ...pair, encryptionKeyId: keyIdOf(pair.encryptionKey) };
}

/**
 * Reads the local key file, creating it first if missing. `wx` makes creation atomic: when two
 * processes start together (the seed and the server), one writes and the other reads its keys.
 */
export function readOrCreateKeyFile(filePath: string): { encryptionKey: Buffer; indexKey: Buffer } {
  if (!fs.existsSync(filePath)) {
    const generated: KeyFile = {
      encryptionKey: randomBytes(32).toString("base64"),
      indexKey: randomBytes(32).toString("base64"),
      createdAt: new Date().toISOString(),
    };
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
    try {
      fs.writeFileSync(filePath, `${JSON.stringify(generated, null, 2)}\n`, { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const stored = readKeyFile(filePath);
  return { encryptionKey: decodeKey(stored.encryptionKey), indexKey: decodeKey(stored.indexKey) };
}

function readKeyFile(filePath: string, attemptsLeft = 20): KeyFile {
  const text = fs.readFileSync(filePath, "utf8");
  try {
    const parsed = JSON.parse(text) as Partial<KeyFile>;
    if (typeof parsed.encryptionKey !== "string" || typeof parsed.indexKey !== "string") throw new Error("keys missing");
    return parsed as KeyFile;
  } catch (error) {
    // Another process may have created the file a moment ago and still be writing it.
    if (text.trim() === "" && attemptsLeft > 0) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
      return readKeyFile(filePath, attemptsLeft - 1);
    }
    throw new AppError("CONFIGURATION", `the local PII key file ${filePath} is unreadable; restore it or remove it with its database`, {
      cause: error,
    });
  }
}

let cachedKeys: PiiKeys | undefined;

/** This process's keys, resolved on first use. Call at boot to refuse a misconfigured start. */
export function getPiiKeys(): PiiKeys {
  cachedKeys ??= resolvePiiKeys(env());
  return cachedKeys;
}
