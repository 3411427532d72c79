/**
 * Writes lib/validation/ghana-mobile-plan.json: from libphonenumber-js's mobile metadata, what
 * lib/validation/phone.ts needs to know about Ghana (+233), the only country the service sends
 * its SMS to — its calling code, prefixes and the pattern of a mobile number — so that neither
 * the library nor its metadata reaches the browser (ADR 0057, the first-load JS budget). Run it
 * after updating libphonenumber-js; lib/validation/phone.test.ts fails while the file and the
 * installed library disagree.
 *
 *   npx tsx scripts/phone-metadata.ts
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Metadata, type MetadataJson } from "libphonenumber-js/core";
import mobileMetadata from "libphonenumber-js/metadata.mobile.json";

export const ghanaMobilePlanPath = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "lib", "validation", "ghana-mobile-plan.json");

interface GhanaMobilePlan {
  callingCode: string;
  internationalPrefix: string;
  nationalPrefix: string;
  /** A mobile national number (without the leading 0), as a regular expression's source. */
  mobilePattern: string;
}

/** The numbering plan's methods this script reads (libphonenumber-js's own types leave them out). */
interface NumberingPlanReader {
  callingCode(): string;
  IDDPrefix(): string;
  nationalPrefix(): string;
  type(name: "MOBILE"): { pattern(): string } | undefined;
}

export function ghanaMobilePlan(metadataJson: MetadataJson = mobileMetadata as unknown as MetadataJson): GhanaMobilePlan {
  const metadata = new Metadata(metadataJson);
  metadata.selectNumberingPlan("GH");
  const plan = metadata.numberingPlan as unknown as NumberingPlanReader | undefined;
  const mobile = plan?.type("MOBILE");
  if (!plan || !mobile) throw new Error("libphonenumber-js has no mobile numbering plan for Ghana");
  return { callingCode: plan.callingCode(), internationalPrefix: plan.IDDPrefix(), nationalPrefix: plan.nationalPrefix(), mobilePattern: mobile.pattern() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(ghanaMobilePlanPath, `${JSON.stringify(ghanaMobilePlan(), null, 2)}\n`);
  console.log(`wrote ${ghanaMobilePlanPath}`);
}
