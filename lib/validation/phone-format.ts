/**
 * How a Ghana mobile number is shown, apart from how one is parsed (`phone.ts`, which loads the
 * phone metadata): a form page shows the example without loading the parser (ADR 0034).
 */

export const phoneExample = "024 123 4567";

/** `0241234567` → `024 123 4567`, for reading aloud at the counter. */
export function formatGhanaMobileForDisplay(localNumber: string): string {
  const match = /^(\d{3})(\d{3})(\d{4})$/.exec(localNumber);
  return match ? `${match[1]} ${match[2]} ${match[3]}` : localNumber;
}
