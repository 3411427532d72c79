import { createHash } from "node:crypto";

/** The versions the poll routes answer with (ADR 0026): a tag per answer, compared with what the page holds. */

/** A conditional answer: 304 (nothing the viewer sees changed) or 200 with the body. */
export type ConditionalAnswer<T> = { status: 304; etag: string } | { status: 200; etag: string; body: T };

export function versionTag(parts: ReadonlyArray<string | number | boolean>): string {
  return `"${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 27)}"`;
}

/** `If-None-Match` may list several tags, or be weak (W/"…"); any equal one matches. */
export function matchesTag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}
