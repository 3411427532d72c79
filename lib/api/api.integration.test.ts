import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { apiIdempotency, apiKeys, auditEvents, tokenRequests } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { aBranch } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { newGhanaCardNumber } from "@/test/kit/submissions";
import { generateApiKey, hashApiKey } from "./key-format";
import { approveApiKey, createApiKeyDirect, proposeApiKeyRoll, revokeApiKey, type ApiKeyInput } from "./keys";
import { buildOpenApiDocument } from "./openapi";
import { getTokenRoute, listPurposesRoute, listTokensRoute, postTokenRoute } from "./route";
import { problemSchema, purposeListSchema, tokenCreatedSchema, tokenListSchema, tokenSchema } from "./schemas";
import type { ApiDependencies } from "./tokens";

/**
 * The /api/v1 handlers exactly as the route files export them, on a real database (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set) against the sandbox service, whose own call log counts
 * the issuing POSTs. Every answer is checked against the OpenAPI document: its status and media
 * type must be declared for the operation, and its body must parse with the schema the document
 * references there.
 */

const API_KEY = "api-test-key";
const keys = scratchPiiKeys();
const document = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>> };
const componentSchemas: Record<string, z.ZodType> = {
  TokenCreated: tokenCreatedSchema,
  Token: tokenSchema,
  TokenList: tokenListSchema,
  PurposeList: purposeListSchema,
  Problem: problemSchema,
};

/** The answer, read and held to the document's declaration for this path, method and status. */
async function documented(response: Response, path: string, method: "get" | "post"): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const declared = document.paths[path]?.[method]?.responses[String(response.status)];
  expect(declared, `${method.toUpperCase()} ${path} answered an undeclared ${response.status}`).toBeDefined();
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!;
  const media = declared!.content?.[contentType];
  expect(media, `${response.status} declared without ${contentType}`).toBeDefined();
  const name = media!.schema.$ref?.split("/").pop() ?? "";
  expect(componentSchemas[name], `no zod schema for ${name}`).toBeDefined();
  const body = (await response.json()) as Record<string, unknown>;
  const parsed = componentSchemas[name]!.safeParse(body);
  expect(parsed.success, `${response.status} body does not match ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  return { status: response.status, body, headers: response.headers };
}

forEachDatabase("the /api/v1 routes", (driver) => {
  let scratch: ScratchDatabase;
  let db: Database;
  let sandbox: RunningSandbox;
  let upstream: UpstreamClient;
  let accra: { id: string };
  let kumasi: { id: string };
  /** Held open by a test to keep an issuing call in flight. */
  let gate: Promise<void> | null = null;
  const made: Record<string, { key: string; id: string }> = {};

  const deps = async (): Promise<ApiDependencies> => ({ db, upstream, keys });
  const routes = { post: postTokenRoute(deps), list: listTokensRoute(deps), get: getTokenRoute(deps), purposes: listPurposesRoute(deps) };

  const issuingPosts = () => sandbox.store.listCalls().filter((call) => call.method === "POST" && call.path.includes("initiate")).length;

  function request(path: string, options: { key?: string; method?: string; body?: unknown; idempotencyKey?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    return new Request(`http://veridesk.test${path}`, { method: options.method ?? "GET", headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  }

  const post = async (key: string, body: unknown, idempotencyKey: string | undefined = randomUUID()) =>
    documented(await routes.post(request("/api/v1/tokens", { key, method: "POST", body, idempotencyKey }), { params: undefined }), "/api/v1/tokens", "post");
  const getToken = async (key: string, id: string) =>
    documented(await routes.get(request(`/api/v1/tokens/${id}`, { key }), { params: Promise.resolve({ id }) }), "/api/v1/tokens/{id}", "get");

  const fingerprintBody = (overrides: Record<string, unknown> = {}) => ({
    kind: "fingerprint",
    id_type: "GHANA_CARD",
    id_number: newGhanaCardNumber(),
    reference: "ACC-0042-7781",
    purpose: "account-opening",
    branch: "ACC",
    consent_version: 1,
    ...overrides,
  });
  const remoteBody = (overrides: Record<string, unknown> = {}) => ({
    kind: "remote",
    id_type: "GHANA_CARD",
    id_number: newGhanaCardNumber(),
    phone: "0241234567",
    reference: "0241234567",
    purpose: "kyc-refresh",
    branch: "ACC",
    consent_version: 1,
    ...overrides,
  });

  async function makeKey(label: string, input: Partial<ApiKeyInput>) {
    const { key, row } = await createApiKeyDirect(
      db,
      { name: label, environment: "test", scopes: ["tokens:write", "tokens:read"], branchIds: [accra.id], expiresAt: new Date(Date.now() + 86_400_000), ...input },
      "api-key:create",
    );
    made[label] = { key, id: row.id };
    return made[label]!;
  }

  beforeAll(async () => {
    scratch = await openScratchDatabase({ driver, name: "api" });
    db = scratch.opened.db;
    accra = await aBranch(db, { code: "ACC", name: "Accra – Head Office" });
    kumasi = await aBranch(db, { code: "KUM", name: "Kumasi – Adum" });
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY });
    const real = createUpstreamClient({ baseUrl: sandbox.url, apiKey: API_KEY, timeoutMs: 5_000, issueTimeoutMs: 5_000, logger: { info: () => undefined, warn: () => undefined } });
    upstream = {
      ...real,
      initiateFingerprintToken: async (body) => {
        if (gate) await gate;
        return real.initiateFingerprintToken(body);
      },
    };
    await makeKey("Onboarding app", {});
    await makeKey("Reader", { scopes: ["tokens:read"] });
    await makeKey("Kumasi loans", { branchIds: [kumasi.id] });
    await makeKey("Busy", { rateLimitPerMinute: 3 });
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    await scratch?.destroy();
  });

  it("issues through the forms' use case: 201, the token, audited under the key's name, the same token readable, no full ID number or phone in any answer", async () => {
    const body = remoteBody();
    const before = issuingPosts();
    const created = await post(made["Onboarding app"]!.key, body);
    expect(created.status).toBe(201);
    expect(created.body.state).toBe("waiting");
    expect(issuingPosts()).toBe(before + 1);

    const [audit] = await db.select().from(auditEvents).where(sql`${auditEvents.subjectId} = ${created.body.id as string} and ${auditEvents.action} = 'token.issue'`);
    expect(audit?.actorLabel).toBe("api:Onboarding app");
    const [row] = await db.select().from(tokenRequests).where(eq(tokenRequests.id, created.body.id as string));
    expect(row?.idNumberEncrypted).not.toContain(body.id_number);

    const read = await getToken(made["Onboarding app"]!.key, created.body.id as string);
    expect(read.body).toMatchObject({ id: created.body.id, token: created.body.token, branch: "ACC", kind: "remote", state: "waiting" });
    // The phone typed as the reference is masked, as in the webhooks (lib/webhooks/reference.ts).
    expect(read.body.reference).toBe("024 ••• 4567");
    const listed = await documented(
      await routes.list(request(`/api/v1/tokens?reference=${body.reference}`, { key: made["Onboarding app"]!.key }), { params: undefined }),
      "/api/v1/tokens",
      "get",
    );
    expect((listed.body.data as { id: string }[]).map((token) => token.id)).toContain(created.body.id);
    for (const text of [JSON.stringify(created.body), JSON.stringify(read.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain(body.id_number);
      expect(text).not.toContain(body.phone);
      expect(text).not.toContain(body.id_number.slice(4, 13));
    }
  });

  it("the same Idempotency-Key and body: the stored answer, one POST at the service; another body: 422; while the first runs: 409", async () => {
    const key = made["Onboarding app"]!.key;
    const idempotencyKey = `order-${randomUUID()}`;
    const body = fingerprintBody();
    const before = issuingPosts();
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const first = post(key, body, idempotencyKey);
    // While the first call is held at the service's door (its claim written), the same request is still in flight.
    for (let waited = 0; (await db.select().from(apiIdempotency).where(eq(apiIdempotency.idempotencyKey, idempotencyKey))).length === 0; waited += 50) {
      if (waited > 10_000) throw new Error("the first request never claimed its key");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const during = await post(key, body, idempotencyKey);
    expect(during.status).toBe(409);
    expect(during.body.code).toBe("REQUEST_IN_PROGRESS");
    open();
    gate = null;
    const answered = await first;
    expect(answered.status).toBe(201);

    const again = await post(key, { ...body }, idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(answered.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // Key order does not make another body.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await post(key, reordered, idempotencyKey)).body).toEqual(answered.body);

    const other = await post(key, { ...body, reference: "ACC-0042-9999" }, idempotencyKey);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(issuingPosts()).toBe(before + 1);
  });

  it("a rolled key replays its predecessor's answers, and both work during the overlap", async () => {
    const original = await makeKey("Rolled", {});
    const idempotencyKey = randomUUID();
    const body = fingerprintBody();
    const first = await post(original.key, body, idempotencyKey);
    const proposal = await proposeApiKeyRoll(db, { userId: "admin", username: "admin" }, original.id);
    const rolled = await approveApiKey(db, { userId: "admin-2", username: "admin.second" }, proposal.id, undefined, new Date(), { rollOverlapMs: 60_000 });
    const replay = await post(rolled.key, body, idempotencyKey);
    expect(replay.body).toEqual(first.body);
    expect((await getToken(original.key, first.body.id as string)).status).toBe(200);
  });

  it("stored answers are kept a day: a key's first request of a minute deletes the older ones, of every integration", async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const stored = (key: string, createdAt: Date) => ({
      serviceUserId: "another-integration",
      idempotencyKey: key,
      requestHash: "0".repeat(64),
      status: "done",
      responseStatus: 201,
      responseBody: { id: key },
      createdAt,
      lockedUntil: createdAt,
    });
    const dayOld = `day-old-${randomUUID()}`;
    const hourOld = `hour-old-${randomUUID()}`;
    await db.insert(apiIdempotency).values([stored(dayOld, hoursAgo(25)), stored(hourOld, hoursAgo(1))]);
    const sweeper = await makeKey("Sweeper", {});
    const answer = await routes.purposes(request("/api/v1/purposes", { key: sweeper.key }), { params: undefined });
    expect(answer.status).toBe(200);
    const left = await db.select({ key: apiIdempotency.idempotencyKey }).from(apiIdempotency).where(eq(apiIdempotency.serviceUserId, "another-integration"));
    expect(left.map((row) => row.key)).toEqual([hourOld]);
  });

  it("refuses: no Idempotency-Key 400, a refused field 422 naming the API's field, the purpose policy 422, an open token 409", async () => {
    const key = made["Onboarding app"]!.key;
    const missing = await post(key, fingerprintBody(), "");
    expect(missing.status).toBe(400);
    const bad = await post(key, fingerprintBody({ id_number: "GHA-12" }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors as object)).toEqual(["id_number"]);
    const unknownField = await post(key, { ...fingerprintBody(), teller: "me" });
    expect(unknownField.status).toBe(422);
    const policy = await post(key, fingerprintBody({ purpose: "no-such-purpose" }));
    expect(policy.status).toBe(422);
    expect(Object.keys(policy.body.errors as object)).toEqual(["purpose"]);

    const card = newGhanaCardNumber();
    expect((await post(key, fingerprintBody({ id_number: card }))).status).toBe(201);
    const open = await post(key, fingerprintBody({ id_number: card }));
    expect(open.status).toBe(409);
    expect(open.body.code).toBe("CONFLICT");
    expect((await post(key, fingerprintBody({ id_number: card, allow_duplicate: true }))).status).toBe(201);
  });

  it("masks every phone in the reference it answers with: two in a row, dotted, bracketed", async () => {
    const key = made["Onboarding app"]!.key;
    for (const [reference, expected] of [
      ["0241234567 0201234567", "024 ••••••••••••• 4567"],
      ["024.123.4567", "024 ••• 4567"],
      ["(024) 123-4567 / +233 20 123 4567", "(024 ••• 4567 / +233 ••••• 4567"],
    ] as const) {
      const created = await post(key, fingerprintBody({ reference }));
      expect(created.status, reference).toBe(201);
      const read = await getToken(key, created.body.id as string);
      expect(read.body.reference, reference).toBe(expected);
    }
  });

  it("refuses a since the database cannot hold (year 0000, past 2100 in UTC, before 2000) with a problem answer, never a 500", async () => {
    const key = made["Onboarding app"]!.key;
    const list = async (since: string) =>
      documented(await routes.list(request(`/api/v1/tokens?since=${encodeURIComponent(since)}`, { key }), { params: undefined }), "/api/v1/tokens", "get");
    for (const since of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "9999-12-31T23:59:59-14:00", "2100-12-31T23:00:00-02:00", "not a time"]) {
      const refused = await list(since);
      expect(refused.status, since).toBe(422);
      expect(refused.body.code, since).toBe("VALIDATION");
      expect(Object.keys(refused.body.errors as object), since).toEqual(["since"]);
    }
    for (const since of ["2000-01-01T00:00:00Z", "2100-12-31T23:59:59+00:00"]) expect((await list(since)).status, since).toBe(200);
  });

  it("refuses keys: without the scope 403, another branch 403, expired or revoked 401, malformed or checksum-bad 401 without a lookup", async () => {
    const reader = await post(made["Reader"]!.key, fingerprintBody());
    expect(reader.status).toBe(403);
    expect(reader.body.code).toBe("FORBIDDEN");
    const otherBranch = await post(made["Onboarding app"]!.key, fingerprintBody({ branch: "KUM" }));
    expect(otherBranch.status).toBe(403);

    const expired = await makeKey("Expired", {});
    await db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, expired.id));
    expect((await post(expired.key, fingerprintBody())).status).toBe(401);
    const revoked = await makeKey("Revoked", {});
    await revokeApiKey(db, { userId: "admin", username: "admin" }, revoked.id);
    const refused = await post(revoked.key, fingerprintBody());
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHENTICATED");

    // A database that throws on any use proves the malformed keys were refused before it.
    const poisoned = new Proxy({} as Database, {
      get: () => {
        throw new Error("the database was asked");
      },
    });
    const noDb = postTokenRoute(async () => ({ db: poisoned, upstream, keys }));
    const good = made["Onboarding app"]!.key;
    const typo = `${good.slice(0, 20)}${good[20] === "a" ? "b" : "a"}${good.slice(21)}`;
    for (const key of [typo, good.slice(0, -1), "vdk_live_short", generateApiKey("test").replace("vdk_test_", "vdk_prod_"), "sk_live_abc"]) {
      const response = await noDb(request("/api/v1/tokens", { key, method: "POST", body: fingerprintBody(), idempotencyKey: randomUUID() }), { params: undefined });
      const answered = await documented(response, "/api/v1/tokens", "post");
      expect(answered.status, key).toBe(401);
    }
    const none = await documented(await noDb(request("/api/v1/tokens", { method: "POST", body: fingerprintBody() }), { params: undefined }), "/api/v1/tokens", "post");
    expect(none.status).toBe(401);
  });

  it("a key for Accra reading a Kumasi token, another integration's token, or no token at all: the same 404", async () => {
    const kumasiToken = await post(made["Kumasi loans"]!.key, fingerprintBody({ branch: "KUM" }));
    expect(kumasiToken.status).toBe(201);
    const accraToken = await post(made["Onboarding app"]!.key, fingerprintBody());
    const answers = [
      await getToken(made["Onboarding app"]!.key, kumasiToken.body.id as string),
      await getToken(made["Reader"]!.key, accraToken.body.id as string),
      await getToken(made["Onboarding app"]!.key, randomUUID()),
      await getToken(made["Onboarding app"]!.key, "not-a-uuid"),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe("No token with this id.");
    }
  });

  it("lists the purposes with their codes and the consent wording in force", async () => {
    const answer = await documented(await routes.purposes(request("/api/v1/purposes", { key: made["Reader"]!.key }), { params: undefined }), "/api/v1/purposes", "get");
    expect((answer.body.data as { code: string }[]).map((purpose) => purpose.code)).toContain("account-opening");
    expect((answer.body.consent as { version: number }).version).toBe(1);
  });

  it("rate-limits per key in the database: two instances share one count; over it, 429 with Retry-After", async () => {
    // Two handler sets, as two app instances would have, over the one database.
    const otherInstance = listPurposesRoute(async () => ({ db, upstream, keys }));
    // The windows are whole minutes: start well inside one, so all five requests share it.
    const msToNextMinute = 60_000 - (Date.now() % 60_000);
    if (msToNextMinute < 5_000) await new Promise((resolve) => setTimeout(resolve, msToNextMinute + 100));
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const handler = i % 2 === 0 ? routes.purposes : otherInstance;
      const answer = await documented(await handler(request("/api/v1/purposes", { key: made["Busy"]!.key }), { params: undefined }), "/api/v1/purposes", "get");
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get("retry-after");
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  });

  it("keeps only the hash of each key", async () => {
    const rows = await db.select().from(apiKeys);
    const dump = JSON.stringify(rows);
    for (const { key } of Object.values(made)) {
      expect(dump).not.toContain(key);
      expect(dump).toContain(hashApiKey(key));
    }
  });
});

describe("the OpenAPI document", () => {
  it("declares every route the handlers serve, with problem details for the refusals", () => {
    expect(Object.keys(document.paths).sort()).toEqual(["/api/v1/purposes", "/api/v1/tokens", "/api/v1/tokens/{id}"]);
    expect(document.paths["/api/v1/tokens"]?.post?.responses["429"]?.content?.["application/problem+json"]).toBeDefined();
  });
});
