import "server-only";

const ghanaCardNumberPattern = /GHA[-\s]?\d{9}[-\s]?\d/gi;
const longestEchoedText = 300;

export const scrubbedMarker = "[redacted]";

/**
 * Makes text that came from the service safe for error messages and logs. The service may echo a
 * request value back ("GHA-123456789-0 is not a valid card"), so every value we sent that must not
 * leak is cut out, and any Ghana Card number is masked even if the service reformatted it.
 */
export function scrubText(text: string, sensitiveValues: readonly string[]): string {
  let scrubbed = text;
  for (const value of sensitiveValues) {
    // Very short values (a one-digit flag) would blank out unrelated text and reveal nothing.
    if (value.trim().length < 4) continue;
    scrubbed = scrubbed.replace(new RegExp(escapeRegExp(value.trim()), "gi"), scrubbedMarker);
  }
  scrubbed = scrubbed.replace(ghanaCardNumberPattern, scrubbedMarker);
  return scrubbed.length > longestEchoedText ? `${scrubbed.slice(0, longestEchoedText)}…` : scrubbed;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
