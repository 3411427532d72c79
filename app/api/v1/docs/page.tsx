import type { Metadata } from "next";
import { headers } from "next/headers";
import { NONCE_HEADER } from "@/lib/security-headers";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

/**
 * The API reference (Scalar), rendering /api/v1/openapi.json. Its script is served by the app
 * itself (./standalone.js) under this request's CSP nonce (proxy.ts treats this path as a page),
 * so nothing is fetched from outside: the CSP holds and the page works on a bank network without
 * internet. Open to everyone, as the document is: neither holds any data.
 */
/** Nothing leaves the app: no agent, telemetry, CDN fonts or request proxy (the CSP refuses them anyway). */
const configuration = JSON.stringify({
  agent: { disabled: true },
  telemetry: false,
  withDefaultFonts: false,
  showDeveloperTools: "never",
  showToolbar: "never",
  hideClientButton: true,
  documentDownloadType: "json",
});

export default async function ApiReferencePage() {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    <>
      <script id="api-reference" data-url="/api/v1/openapi.json" data-configuration={configuration} type="application/json" nonce={nonce} />
      <script src="/api/v1/docs/standalone.js" nonce={nonce} async />
    </>
  );
}
