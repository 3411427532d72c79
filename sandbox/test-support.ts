import { createSandboxApp } from "./app";
import type { IdType } from "./store";

export const TEST_API_KEY = "test-key";
export const TEST_PUBLIC_URL = "http://127.0.0.1:4999";

export const ID_NUMBER_BY_TYPE: Record<IdType, Record<string, string>> = {
  GHANA_CARD: { ghanacardnumber: "GHA-123456789-0" },
  VOTER: { voterid: "7654321098" },
  PASSPORT: { passportnumber: "G1234567" },
  DRIVER_LICENCE: { driverid: "DL-0042-2019", dob: "1990-04-23" },
};

export function buildRemoteFields(idType: IdType, extra: Record<string, string> = {}): Record<string, string> {
  return {
    id_type: idType,
    verificationtype: "3",
    phonenumber: "0541504140",
    referenceid: "0541504140",
    purpose: "Account opening",
    ...ID_NUMBER_BY_TYPE[idType],
    ...extra,
  };
}

export function toFormData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** An in-process sandbox driven through `app.request`, with the key added to spec API calls. */
export function createTestSandbox() {
  const { app, store } = createSandboxApp({ apiKey: TEST_API_KEY, publicUrl: () => TEST_PUBLIC_URL });
  const authorised = { "X-API-AUTH": TEST_API_KEY };

  const request = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init));

  const sendJson = (path: string, body: unknown, method = "POST") =>
    request(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  async function generateRemoteToken(idType: IdType, extra: Record<string, string> = {}): Promise<string> {
    const response = await postRemote(buildRemoteFields(idType, extra));
    if (response.status !== 200) throw new Error(`generation failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { verificationtoken: string }).verificationtoken;
  }

  function postRemote(fields: Record<string, string>) {
    return request("/api/identification/initiate/token_verification", {
      method: "POST",
      headers: authorised,
      body: toFormData(fields),
    });
  }

  function postFingerprint(body: unknown) {
    return request("/api/fingerprint/initiate_finger_verification_sdk", {
      method: "POST",
      headers: { ...authorised, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  async function generateFingerprintToken(): Promise<string> {
    const response = await postFingerprint({ id_number: "GHA-123456789-0", referenceid: "0541504140" });
    return ((await response.json()) as { data: { token: string } }).data.token;
  }

  async function checkTokenStatus(token: string): Promise<unknown> {
    const response = await request(`/api/identification/check_token_status?token=${token}`, { headers: authorised });
    return response.json();
  }

  async function getTokenStatus(token: string): Promise<unknown> {
    const response = await request(`/api/identification/token_status?token=${token}`, { headers: authorised });
    return response.json();
  }

  return {
    app,
    store,
    request,
    sendJson,
    authorised,
    postRemote,
    postFingerprint,
    generateRemoteToken,
    generateFingerprintToken,
    checkTokenStatus,
    getTokenStatus,
  };
}

/** Posts an HTML form the way a browser does. */
export function formBody(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  };
}
