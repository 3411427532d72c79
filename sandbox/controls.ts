import { Hono, type Context } from "hono";
import { z } from "zod";
import { FAULT_MODES, NO_RESULT_SHAPES, RESULT_STATUSES, type SandboxStore, type TransitionResult } from "./store";

// Numbers are coerced so the same schemas serve JSON bodies and the controls page's HTML forms.
export const resultBodySchema = z.object({
  status: z.enum(RESULT_STATUSES),
  error: z.string().optional(),
});

export const clockBodySchema = z.object({
  advanceMinutes: z.coerce.number().finite().nonnegative(),
});

export const outcomeBodySchema = z.object({
  token: z.string().min(1).optional(),
  status: z.enum(RESULT_STATUSES),
  error: z.string().optional(),
});

export const faultBodySchema = z.object({
  mode: z.enum(FAULT_MODES),
  count: z.coerce.number().int().positive().default(1),
  path: z.string().startsWith("/", "path must start with /").optional(),
  token: z.string().min(1).optional(),
  delayMs: z.coerce.number().int().nonnegative().optional(),
  retryAfterSeconds: z.coerce.number().int().nonnegative().optional(),
});

export const behaviourBodySchema = z.object({
  tokenStatusNoResult: z.enum(NO_RESULT_SHAPES),
});

type ControlAction<T> = { ok: true; value: T } | { ok: false; status: 404 | 409 | 422; body: Record<string, unknown> };

/** The operations behind both the JSON control API and the HTML forms, so the two cannot drift. */
function createControlActions(store: SandboxStore) {
  const fromTransition = (result: TransitionResult): ControlAction<unknown> =>
    result.ok
      ? { ok: true, value: result.record }
      : { ok: false, status: 409, body: { message: result.message, reason: result.reason } };

  const parse = <T>(schema: z.ZodType<T>, input: unknown): ControlAction<T> => {
    const parsed = schema.safeParse(input ?? {});
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, status: 422, body: { message: "Validation failed", errors: z.flattenError(parsed.error).fieldErrors } };
  };

  return {
    setResult(token: string, input: unknown): ControlAction<unknown> {
      const parsed = parse(resultBodySchema, input);
      return parsed.ok ? fromTransition(store.completeVerification(token, parsed.value)) : parsed;
    },
    markUsed(token: string): ControlAction<unknown> {
      return fromTransition(store.startVerification(token));
    },
    advanceClock(input: unknown): ControlAction<{ now: string }> {
      const parsed = parse(clockBodySchema, input);
      if (!parsed.ok) return parsed;
      store.advanceClock(parsed.value.advanceMinutes);
      return { ok: true, value: { now: store.nowIso() } };
    },
    forceOutcome(input: unknown): ControlAction<unknown> {
      const parsed = parse(outcomeBodySchema, input);
      if (!parsed.ok) return parsed;
      const { token } = parsed.value;
      if (token && !store.describeToken(token)) {
        return { ok: false, status: 404, body: { message: `Token ${token} does not exist` } };
      }
      store.forceOutcome(parsed.value);
      return { ok: true, value: parsed.value };
    },
    addFault(input: unknown): ControlAction<unknown> {
      const parsed = parse(faultBodySchema, input);
      return parsed.ok ? { ok: true, value: store.addFault(parsed.value) } : parsed;
    },
    setBehaviour(input: unknown): ControlAction<{ tokenStatusNoResult: string }> {
      const parsed = parse(behaviourBodySchema, input);
      if (!parsed.ok) return parsed;
      store.setNoResultShape(parsed.value.tokenStatusNoResult);
      return { ok: true, value: { tokenStatusNoResult: store.tokenStatusNoResultShape } };
    },
  };
}

async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** HTML forms send "" for an untouched input; treat that as "not given" before validating. */
async function readFormBody(c: Context): Promise<Record<string, string>> {
  const form = await c.req.parseBody();
  return Object.fromEntries(
    Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1].trim() !== ""),
  );
}

function describeFailure(body: Record<string, unknown>): string {
  const errors = body.errors as Record<string, string[]> | undefined;
  const details = errors ? Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(", ")}`) : [];
  return [String(body.message), ...details].join(" — ");
}

/** `/sandbox/api/*` (JSON, no key) and `/sandbox/controls/*` (form posts that redirect back). */
export function createControls(store: SandboxStore): Hono {
  const controls = new Hono();
  const actions = createControlActions(store);

  const respond = (c: Context, action: ControlAction<unknown>) =>
    action.ok ? c.json(action.value as object) : c.json(action.body, action.status);

  const withJsonBody = async (c: Context, run: (body: unknown) => ControlAction<unknown>) => {
    const body = await readJsonBody(c);
    if (body === undefined) return c.json({ message: "Malformed JSON body" }, 400);
    return respond(c, run(body));
  };

  controls.get("/sandbox/api/tokens", (c) => c.json({ tokens: store.listTokens() }));
  controls.get("/sandbox/api/tokens/:token", (c) => {
    const record = store.describeToken(c.req.param("token"));
    return record ? c.json(record) : c.json({ message: "Unknown token" }, 404);
  });
  controls.post("/sandbox/api/tokens/:token/result", (c) => withJsonBody(c, (body) => actions.setResult(c.req.param("token"), body)));
  controls.post("/sandbox/api/tokens/:token/use", (c) => respond(c, actions.markUsed(c.req.param("token"))));

  controls.get("/sandbox/api/clock", (c) => c.json({ now: store.nowIso(), offsetMs: store.offsetMs }));
  controls.post("/sandbox/api/clock", (c) => withJsonBody(c, actions.advanceClock));

  controls.get("/sandbox/api/outcomes", (c) => c.json({ outcomes: store.listForcedOutcomes() }));
  controls.post("/sandbox/api/outcomes", (c) => withJsonBody(c, actions.forceOutcome));

  controls.get("/sandbox/api/faults", (c) => c.json({ faults: store.listFaults() }));
  controls.post("/sandbox/api/faults", (c) => withJsonBody(c, actions.addFault));
  controls.delete("/sandbox/api/faults", (c) => {
    store.clearFaults();
    return c.json({ faults: [] });
  });
  controls.delete("/sandbox/api/faults/:id", (c) =>
    store.removeFault(Number(c.req.param("id"))) ? c.json({ faults: store.listFaults() }) : c.json({ message: "Unknown fault" }, 404),
  );

  controls.get("/sandbox/api/behaviour", (c) => c.json({ tokenStatusNoResult: store.tokenStatusNoResultShape }));
  controls.post("/sandbox/api/behaviour", (c) => withJsonBody(c, actions.setBehaviour));

  controls.get("/sandbox/api/calls", (c) => {
    const since = Number(c.req.query("since") ?? 0);
    return c.json({ calls: store.listCalls(Number.isFinite(since) ? since : 0) });
  });
  controls.get("/sandbox/api/outbox", (c) => c.json({ messages: store.listMessages() }));
  controls.post("/sandbox/api/reset", (c) => {
    store.reset();
    return c.json({ ok: true });
  });

  // ── form handlers for the controls page ────────────────────────────────────

  const redirectBack = (c: Context, action: ControlAction<unknown>, notice: string) => {
    const query = action.ok ? ["notice", notice] : ["error", describeFailure(action.body)];
    return c.redirect(`/sandbox?${new URLSearchParams([query])}`, 303);
  };

  controls.post("/sandbox/controls/clock", async (c) => {
    const form = await readFormBody(c);
    const action = actions.advanceClock({ advanceMinutes: form.minutes });
    return redirectBack(c, action, `Clock moved forward ${form.minutes} minutes.`);
  });
  controls.post("/sandbox/controls/outcome", async (c) => {
    const form = await readFormBody(c);
    const target = form.token ? `token ${form.token}` : "the next generated token";
    return redirectBack(c, actions.forceOutcome(form), `Outcome ${form.status} forced for ${target}.`);
  });
  controls.post("/sandbox/controls/faults", async (c) => {
    const form = await readFormBody(c);
    return redirectBack(c, actions.addFault(form), `Fault "${form.mode}" added.`);
  });
  controls.post("/sandbox/controls/behaviour", async (c) => {
    const form = await readFormBody(c);
    return redirectBack(c, actions.setBehaviour(form), `token_status now answers "${form.tokenStatusNoResult}" while a token has no result.`);
  });
  controls.post("/sandbox/controls/faults/clear", (c) => {
    store.clearFaults();
    return redirectBack(c, { ok: true, value: null }, "All faults cleared.");
  });
  controls.post("/sandbox/controls/reset", (c) => {
    store.reset();
    return redirectBack(c, { ok: true, value: null }, "Sandbox reset.");
  });
  controls.post("/sandbox/controls/tokens/:token/result", async (c) => {
    const token = c.req.param("token");
    const form = await readFormBody(c);
    return redirectBack(c, actions.setResult(token, form), `Token ${token} finished: ${form.status}.`);
  });
  controls.post("/sandbox/controls/tokens/:token/use", (c) => {
    const token = c.req.param("token");
    return redirectBack(c, actions.markUsed(token), `Token ${token} marked used (verification in progress).`);
  });

  return controls;
}
