/**
 * Writes lib/validation/ghana-mobile-metadata.json: libphonenumber-js's mobile metadata cut down
 * to Ghana (+233), the only country the service sends its SMS to, so the browser loads about 1 kB
 * of metadata instead of every country's (ADR 0027, the first-load JS budget). Run it after updating libphonenumber-js;
 * lib/validation/phone.test.ts fails while the file and the installed library disagree.
 *
 *   npx tsx scripts/phone-metadata.ts
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import mobileMetadata from "libphonenumber-js/metadata.mobile.json";

type Metadata = { version: number; country_calling_codes: Record<string, string[]>; countries: Record<string, unknown>; nonGeographic?: Record<string, unknown> };

export const ghanaMobileMetadataPath = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "lib", "validation", "ghana-mobile-metadata.json");

export function ghanaOnlyMetadata(full: Metadata = mobileMetadata as Metadata): Metadata {
  return { version: full.version, country_calling_codes: { "233": ["GH"] }, countries: { GH: full.countries.GH }, nonGeographic: {} };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(ghanaMobileMetadataPath, `${JSON.stringify(ghanaOnlyMetadata())}\n`);
  console.log(`wrote ${ghanaMobileMetadataPath}`);
}
