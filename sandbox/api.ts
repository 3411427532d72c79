import { Hono, type Context } from "hono";
import {
  createFaultResponse,
  DEFAULT_DELAY_MS,
  delayUnlessAborted,
  GATEWAY_NOT_FOUND_PAGE,
  isReplacingFault,
  waitForDisconnect,
} from "./faults";
import type { CallEntry, NoResultShape, SandboxStore, TokenRecord } from "./store";
import { validateFingerprintRequest, validateRemoteRequest, type FieldErrors } from "./validation";

/** The request body, read once up front so the call log and the handlers see the same fields. */
interface ReceivedBody {
  mediaType: "json" | "multipart" | "urlencoded" | "other" | "none";
  fields: Record<string, unknown>;
  json?: unknown;
  isMalformed: boolean;
}

type SpecApiEnv = { Variables: { body: ReceivedBody; call: CallEntry } };

export interface SpecApiOptions {
  store: SandboxStore;
  apiKey: string;
  /** Origin put in verification links (the address the server listens on). */
  resolvePublicUrl: (c: Context) => string;
}

const GENERATION_PATHS = {
  fingerprint: "/api/fingerprint/initiate_finger_verification_sdk",
  remote: "/api/identification/initiate/token_verification",
} as const;

/** The provider's documented API, mounted at the server root like the real service. */
export function createSpecApi({ store, apiKey, resolvePublicUrl }: SpecApiOptions): Hono<SpecApiEnv> {
  const api = new Hono<SpecApiEnv>();

  api.use("/api/*", async (c, next) => {
    const body = await readBody(c.req.raw);
    const queryToken = c.req.query("token");
    const call = store.logCall({
      method: c.req.method,
      path: c.req.path,
      contentType: c.req.header("Content-Type") ?? null,
      fields: body.fields,
      ...(queryToken && { token: queryToken }),
    });
    c.set("body", body);
    c.set("call", call);

    const fault = store.takeFault(c.req.path, queryToken);
    if (fault) call.fault = fault.mode;
    if (fault && isReplacingFault(fault.mode)) {
      const response = createFaultResponse(fault.mode, { retryAfterSeconds: fault.retryAfterSeconds });
      call.status = response.status;
      return response;
    }
    if (fault?.mode === "delay") await delayUnlessAborted(fault.delayMs ?? DEFAULT_DELAY_MS, c.req.raw.signal);

    await next();

    // A hung call is processed in full (a generation does create its token and send its SMS) and
    // then never answered: the "timed out, outcome unknown" case a client has to recover from.
    if (fault?.mode === "hang") {
      await waitForDisconnect(c.req.raw.signal);
      return;
    }
    // A slow call is processed at once and answered late: a client that gave up meanwhile has lost
    // a token the service created.
    if (fault?.mode === "slow") {
      await delayUnlessAborted(fault.delayMs ?? DEFAULT_DELAY_MS, c.req.raw.signal);
      if (c.req.raw.signal.aborted) return;
    }
    call.status = c.res.status;
  });

  api.use("/api/*", async (c, next) => {
    if (c.req.header("X-API-AUTH") !== apiKey) return c.json({ message: "Unauthorized" }, 401);
    await next();
  });

  api.post(GENERATION_PATHS.fingerprint, (c) => {
    const body = c.var.body;
    if (body.mediaType !== "json") return unsupportedMediaType(c, "application/json");
    if (body.isMalformed) return c.json({ message: "Malformed JSON body" }, 400);
    const validated = validateFingerprintRequest(body.json);
    if (!validated.ok) return validationFailed(c, validated.errors);

    const { id_number, referenceid, purpose, branch_name } = validated.value;
    const record = store.createToken({
      kind: "fingerprint",
      idType: "GHANA_CARD",
      request: omitUndefined({ id_number, referenceid, purpose, branch_name }),
    });
    c.var.call.token = record.token;
    return c.json({ message: "Fingerprint session started successfully", data: { token: record.token } });
  });

  api.post(GENERATION_PATHS.remote, (c) => {
    const body = c.var.body;
    if (body.mediaType !== "multipart") return unsupportedMediaType(c, "multipart/form-data");
    if (body.isMalformed) return c.json({ message: "Malformed multipart body" }, 400);
    const validated = validateRemoteRequest(body.fields);
    if (!validated.ok) return validationFailed(c, validated.errors);

    const { idType, phoneNumber, email, shouldSendSms, fields } = validated.value;
    const record = store.createToken({ kind: "remote", idType, request: fields });
    c.var.call.token = record.token;
    sendVerificationLink(record, `${resolvePublicUrl(c)}/sandbox/verify/${record.token}`, { shouldSendSms, phoneNumber, email });
    return c.json({
      responsemessage: "Verification token generated successfully",
      phonenumber: phoneNumber,
      verificationtoken: record.token,
    });
  });

  api.get("/api/identification/check_token_status", (c) => {
    const token = c.req.query("token");
    if (!token) return validationFailed(c, { token: ["token is required"] });
    const state = store.stateOf(token);
    const responsemessage =
      state === "pending" ? "Pending Token" : state === "used" ? "Token has already been used" : "Invalid Token";
    return c.json({ responsemessage });
  });

  api.get("/api/identification/token_status", (c) => {
    const token = c.req.query("token");
    if (!token) return validationFailed(c, { token: ["token is required"] });
    const record = store.describeToken(token);
    if (!record || record.state === "expired") return c.json({ responsemessage: "Invalid Token" });
    if (!record.result) return answerNoResultYet(c, store.tokenStatusNoResultShape);
    const { status, transactionNumber, error } = record.result;
    return c.json({ status: { token, status, transactionnumber: transactionNumber, ...(error !== undefined && { error }) } });
  });

  api.all("/api/*", (c) => c.json({ message: "Not Found" }, 404));

  function sendVerificationLink(
    record: TokenRecord,
    link: string,
    recipient: { shouldSendSms: boolean; phoneNumber: string; email?: string },
  ) {
    const text = `Verify your identity with this link: ${link} (valid for 15 minutes). Token: ${record.token}`;
    if (recipient.shouldSendSms) {
      store.sendMessage({ channel: "sms", to: recipient.phoneNumber, token: record.token, link, body: text });
    }
    if (recipient.email) {
      store.sendMessage({ channel: "email", to: recipient.email, token: record.token, link, body: text });
    }
  }

  return api;
}

function answerNoResultYet(c: Context, shape: NoResultShape) {
  switch (shape) {
    case "message":
      return c.json({ responsemessage: "No result yet for this token" });
    case "empty":
      return c.json({});
    case "html404":
      return c.html(GATEWAY_NOT_FOUND_PAGE, 404);
    case "json404":
      return c.json({ message: "Not Found" }, 404);
  }
}

function validationFailed(c: Context, errors: FieldErrors) {
  return c.json({ message: "Validation failed", errors }, 422);
}

function unsupportedMediaType(c: Context, expected: string) {
  const received = c.req.header("Content-Type") ?? "none";
  return c.json(
    { message: "Unsupported Media Type", errors: { "Content-Type": [`must be ${expected}, received ${received}`] } },
    415,
  );
}

function omitUndefined(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function readBody(request: Request): Promise<ReceivedBody> {
  const contentType = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (request.method === "GET" || request.method === "HEAD" || !request.body) {
    return { mediaType: "none", fields: {}, isMalformed: false };
  }
  if (contentType.startsWith("multipart/form-data")) {
    try {
      return { mediaType: "multipart", fields: describeFormData(await request.formData()), isMalformed: false };
    } catch {
      return { mediaType: "multipart", fields: {}, isMalformed: true };
    }
  }
  const text = await request.text();
  if (contentType.startsWith("application/json")) {
    try {
      const json: unknown = JSON.parse(text);
      const fields = typeof json === "object" && json !== null && !Array.isArray(json) ? { ...json } : {};
      return { mediaType: "json", fields, json, isMalformed: false };
    } catch {
      return { mediaType: "json", fields: {}, isMalformed: true };
    }
  }
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    return { mediaType: "urlencoded", fields: Object.fromEntries(new URLSearchParams(text)), isMalformed: false };
  }
  return { mediaType: "other", fields: {}, isMalformed: false };
}

/** One entry per field name: the text, an array when repeated, a short description for a file. */
function describeFormData(form: FormData): Record<string, unknown> {
  const describe = (value: FormDataEntryValue) =>
    typeof value === "string" ? value : { file: value.name, size: value.size, type: value.type };
  const fields: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name).map(describe);
    fields[name] = values.length === 1 ? values[0] : values;
  }
  return fields;
}
