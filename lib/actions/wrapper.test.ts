import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { permissionsOf } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import type { Staff } from "@/lib/auth/types";
import { AppError } from "@/lib/errors";
import { createActionWrapper, type ActionLogger, type DeclaredChanges } from "./wrapper";
import { currentRequestId } from "@/lib/request-context";

const ACCRA = "0b7f5f36-0000-4000-8000-00000000acc0";
const KUMASI = "0b7f5f36-0000-4000-8000-00000000c0a5";

function fakeStaff(role: StaffRole, branchId = ACCRA): Staff {
  return {
    userId: `user-${role}`,
    username: `${role}.accra`,
    name: "Ama Mensah",
    role,
    branch: { id: branchId, code: "ACC", name: "Accra – Head Office" },
    permissions: permissionsOf(role),
    session: { id: "s1", signInMethod: "password", idleExpiresAt: new Date(), absoluteExpiresAt: new Date() },
  };
}

type Line = { level: string; bindings: Record<string, unknown>; object: Record<string, unknown>; message: string };

function recordingLogger(lines: Line[], bindings: Record<string, unknown> = {}): ActionLogger {
  const write = (level: string) => (object: Record<string, unknown>, message: string) =>
    lines.push({ level, bindings, object, message });
  return {
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
  };
}

/** The test's own list of sensitive changes: the wrapper refuses any name missing from its list. */
const ordinaryTest = { changes: "a test", controls: [{ kind: "ordinary", reason: "a test" }] } as const;
const testChanges = {
  "test.admin": ordinaryTest,
  "test.change_password": ordinaryTest,
  "test.enrol": ordinaryTest,
  "test.issue": ordinaryTest,
  "test.range": ordinaryTest,
  "test.redirect": ordinaryTest,
  "test.upper": ordinaryTest,
  "test.proven_factor": { changes: "a test", controls: [{ kind: "proven_second_factor" }] },
  "test.head_office": { changes: "a test", controls: [{ kind: "head_office_only" }] },
  "test.head_office_when": {
    changes: "a test",
    controls: [{ kind: "head_office_only", when: "the record says so", checkedIn: { file: "lib/x.ts", by: "x" }, provenBy: "lib/x.test.ts" }],
  },
  "POST /api/test": ordinaryTest,
} satisfies DeclaredChanges<string>;

function setUp(staff: Staff | null) {
  const lines: Line[] = [];
  const defineAction = createActionWrapper({
    sensitiveChanges: testChanges,
    getStaff: async () => staff,
    logger: recordingLogger(lines),
    newRequestId: () => "req-1",
  });
  return { lines, defineAction };
}

const issueSchema = z.object({
  reference: z.string().min(3, "Enter a reference of at least 3 characters."),
  branchId: z.uuid("Choose a branch."),
  options: z.object({ sendSms: z.boolean({ error: "Say whether to send the SMS." }) }),
});

const validInput = { reference: "0244123456", branchId: ACCRA, options: { sendSms: true } };

describe("the action wrapper", () => {
  it("answers UNAUTHENTICATED when signed out, without parsing or running", async () => {
    const { defineAction } = setUp(null);
    const run = vi.fn();
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, run);
    const result = await action({} as never);
    expect(result).toMatchObject({ ok: false, code: "UNAUTHENTICATED", fieldErrors: {} });
    expect(result.ok === false && result.formError).toMatch(/session has ended/i);
    expect(run).not.toHaveBeenCalled();
  });

  it("answers FORBIDDEN to a role without the permission before looking at the input", async () => {
    const { defineAction } = setUp(fakeStaff("admin"));
    const run = vi.fn();
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, run);
    const result = await action({} as never);
    expect(result).toMatchObject({ ok: false, code: "FORBIDDEN", fieldErrors: {} });
    expect(run).not.toHaveBeenCalled();
  });

  it("answers PASSWORD_CHANGE_REQUIRED to staff on a temporary password, whatever their role, before the input", async () => {
    const { defineAction } = setUp({ ...fakeStaff("teller"), mustChangePassword: true });
    const run = vi.fn();
    const issue = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, run);
    const result = await issue({} as never);
    expect(result).toMatchObject({ ok: false, code: "PASSWORD_CHANGE_REQUIRED", fieldErrors: {} });
    expect(result.ok === false && result.formError).toMatch(/choose a new password/i);
    const adminOnly = defineAction({ name: "test.admin", schema: z.object({}), permission: "staff.manage" }, run);
    expect(await adminOnly({})).toMatchObject({ ok: false, code: "PASSWORD_CHANGE_REQUIRED" });
    expect(run).not.toHaveBeenCalled();
  });

  it("lets staff on a temporary password through the actions that allow it (sign-out, choosing the password)", async () => {
    const { defineAction } = setUp({ ...fakeStaff("teller"), mustChangePassword: true });
    const action = defineAction(
      { name: "test.change_password", schema: z.object({ next: z.string() }), permission: null, allowsPendingPasswordChange: true },
      async ({ input }) => input.next,
    );
    expect(await action({ next: "chosen" })).toEqual({ ok: true, data: "chosen" });
  });

  it("answers SECOND_FACTOR_REQUIRED to a session that must set up a second factor, except the actions that allow it", async () => {
    const { defineAction } = setUp({ ...fakeStaff("admin"), mustEnrolSecondFactor: true });
    const run = vi.fn();
    const adminOnly = defineAction({ name: "test.admin", schema: z.object({}), permission: "staff.manage" }, run);
    const result = await adminOnly({});
    expect(result).toMatchObject({ ok: false, code: "SECOND_FACTOR_REQUIRED", fieldErrors: {} });
    expect(result.ok === false && result.formError).toMatch(/second factor/i);
    expect(run).not.toHaveBeenCalled();
    const enrol = defineAction({ name: "test.enrol", schema: z.object({}), permission: null, allowsPendingSecondFactor: true }, async () => "enrolled");
    expect(await enrol({})).toEqual({ ok: true, data: "enrolled" });
  });

  it("asks for the new password before the second factor", async () => {
    const { defineAction } = setUp({ ...fakeStaff("admin"), mustChangePassword: true, mustEnrolSecondFactor: true });
    const enrol = defineAction({ name: "test.enrol", schema: z.object({}), permission: null, allowsPendingSecondFactor: true }, async () => "enrolled");
    expect(await enrol({})).toMatchObject({ ok: false, code: "PASSWORD_CHANGE_REQUIRED" });
    const change = defineAction({ name: "test.change_password", schema: z.object({}), permission: null, allowsPendingPasswordChange: true }, async () => "changed");
    expect(await change({})).toEqual({ ok: true, data: "changed" });
  });

  it("returns ALL field errors at once, nested ones under their dotted path", async () => {
    const { defineAction } = setUp(fakeStaff("teller"));
    const run = vi.fn();
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, run);
    const result = await action({ reference: "x", branchId: "nope", options: {} } as never);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("VALIDATION");
    expect(result.fieldErrors).toEqual({
      reference: ["Enter a reference of at least 3 characters."],
      branchId: ["Choose a branch."],
      "options.sendSms": ["Say whether to send the SMS."],
    });
    expect(result.formError).toMatch(/fields need attention/i);
    expect(run).not.toHaveBeenCalled();
  });

  it("keeps form-level issues as the form error", async () => {
    const { defineAction } = setUp(fakeStaff("teller"));
    const schema = z
      .object({ from: z.number(), to: z.number() })
      .refine((value) => value.from <= value.to, "The start must come before the end.");
    const action = defineAction({ name: "test.range", schema, permission: null }, async () => "ok");
    const result = await action({ from: 2, to: 1 });
    expect(result).toMatchObject({ ok: false, code: "VALIDATION", formError: "The start must come before the end.", fieldErrors: {} });
  });

  it("authorises against the parsed input (branch) and runs with staff, scope and request id", async () => {
    const { defineAction } = setUp(fakeStaff("teller", ACCRA));
    const action = defineAction(
      {
        name: "test.issue",
        schema: issueSchema,
        permission: "tokens.issue",
        authorize: ({ input, staff }) => {
          if (input.branchId !== staff.branch.id) throw new AppError("FORBIDDEN", "other branch");
        },
      },
      async ({ input, staff, scope, requestId }) => ({ reference: input.reference, by: staff.userId, scope, requestId }),
    );

    expect(await action({ ...validInput, branchId: KUMASI })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await action(validInput)).toEqual({
      ok: true,
      data: { reference: "0244123456", by: "user-teller", scope: { kind: "branch", branchId: ACCRA }, requestId: "req-1" },
    });
  });

  it("passes the parsed (transformed) input to run", async () => {
    const { defineAction } = setUp(fakeStaff("teller"));
    const schema = z.object({ name: z.string().trim().toUpperCase() });
    const action = defineAction({ name: "test.upper", schema, permission: null }, async ({ input }) => input.name);
    expect(await action({ name: "  kofi " })).toEqual({ ok: true, data: "KOFI" });
  });

  it("maps an AppError to its code and user message, logging the internal one with the request id", async () => {
    const { defineAction, lines } = setUp(fakeStaff("teller"));
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, async () => {
      throw new AppError("UPSTREAM_TIMEOUT", "POST /token timed out after 10000 ms", {
        fieldErrors: { reference: ["Check this reference."] },
      });
    });
    const result = await action(validInput);
    expect(result).toMatchObject({ ok: false, code: "UPSTREAM_TIMEOUT", requestId: "req-1", fieldErrors: { reference: ["Check this reference."] } });
    expect(result.ok === false && result.formError).toMatch(/did not answer in time/);
    expect(JSON.stringify(result)).not.toContain("10000 ms");
    const failed = lines.find((line) => line.message === "action failed");
    expect(failed?.object.internal).toBe("POST /token timed out after 10000 ms");
  });

  it("hides unexpected errors behind INTERNAL", async () => {
    const { defineAction, lines } = setUp(fakeStaff("teller"));
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, async () => {
      throw new Error("connection to 10.0.0.5:5432 refused");
    });
    const result = await action(validInput);
    expect(result).toMatchObject({ ok: false, code: "INTERNAL" });
    expect(JSON.stringify(result)).not.toContain("10.0.0.5");
    expect(lines.some((line) => line.level === "error")).toBe(true);
  });

  it("puts the request id, action name and user on every log line", async () => {
    const { defineAction, lines } = setUp(fakeStaff("teller"));
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, async ({ log }) => {
      log.info({ step: "calling the service" }, "working");
      return 1;
    });
    await action(validInput);
    await action({} as never);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line.bindings).toMatchObject({ requestId: "req-1", action: "test.issue", userId: "user-teller" });
    }
  });

  it("runs the action inside its request id, for code that has no logger of the request", async () => {
    const { defineAction } = setUp(fakeStaff("teller"));
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, async () => {
      await Promise.resolve();
      return currentRequestId();
    });
    expect(await action(validInput)).toEqual({ ok: true, data: "req-1" });
    expect(currentRequestId()).toBeUndefined();
  });

  it("completes the input on the server after the permission check and parses what it answers, all field errors included", async () => {
    const { defineAction } = setUp(fakeStaff("teller"));
    const prepared: unknown[] = [];
    const action = defineAction(
      {
        name: "test.issue",
        schema: issueSchema,
        permission: "tokens.issue",
        prepareInput: async (raw: { keep: string }, { staff, requestId }) => {
          prepared.push({ raw, by: staff.userId, requestId });
          if (raw.keep === "refuse") throw new AppError("FORBIDDEN", "not theirs", { userMessage: "Not yours." });
          return raw.keep === "reference" ? validInput : { ...validInput, reference: "x", branchId: "nope" };
        },
      },
      async ({ input }) => input.reference,
    );
    expect(await action({ keep: "reference" })).toEqual({ ok: true, data: "0244123456" });
    expect(prepared[0]).toEqual({ raw: { keep: "reference" }, by: "user-teller", requestId: "req-1" });
    expect(await action({ keep: "refuse" })).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "Not yours." });
    const invalid = await action({ keep: "bad" });
    expect(invalid).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(Object.keys(invalid.ok ? {} : invalid.fieldErrors)).toEqual(["reference", "branchId"]);

    const forbidden = setUp(fakeStaff("admin")).defineAction(
      { name: "test.issue", schema: issueSchema, permission: "tokens.issue", prepareInput: async (raw: unknown) => prepared.push(raw) },
      async () => "ran",
    );
    const before = prepared.length;
    expect(await forbidden({})).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(prepared).toHaveLength(before);
  });

  it("lets framework control flow (redirects) through untouched", async () => {
    const redirect = Object.assign(new Error("NEXT_REDIRECT"), { digest: "NEXT_REDIRECT;replace;/;307;" });
    const defineAction = createActionWrapper({
      sensitiveChanges: testChanges,
      getStaff: async () => fakeStaff("teller"),
      logger: recordingLogger([]),
      rethrowControlFlow: (error) => {
        if (error === redirect) throw error;
      },
    });
    const action = defineAction({ name: "test.redirect", schema: z.object({}), permission: null }, async () => {
      throw redirect;
    });
    await expect(action({})).rejects.toBe(redirect);
  });
});

describe("the declared controls (lib/auth/sensitive-changes.ts)", () => {
  const withSession = (role: StaffRole, signInMethod: Staff["session"]["signInMethod"]): Staff => ({ ...fakeStaff(role), session: { ...fakeStaff(role).session, signInMethod } });

  it("refuses to define an action whose name is not in the list, or is a route's", () => {
    const { defineAction } = setUp(fakeStaff("admin"));
    expect(() => defineAction({ name: "test.undeclared" as "test.issue", schema: z.object({}), permission: null }, async () => "ran")).toThrow(/"test\.undeclared" has no declared control/);
    expect(() => defineAction({ name: "POST /api/test", schema: z.object({}), permission: null }, async () => "ran")).toThrow(/has no declared control/);
  });

  it("the real list: an undeclared name throws when defined, so its module never loads", () => {
    const defineAction = createActionWrapper({ getStaff: async () => fakeStaff("admin"), logger: recordingLogger([]) });
    expect(() => defineAction({ name: "webhooks.rotate" as "webhooks.test", schema: z.object({}), permission: null }, async () => "ran")).toThrow(/"webhooks\.rotate" has no declared control/);
    expect(() => defineAction({ name: "webhooks.test", schema: z.object({}), permission: "staff.manage" }, async () => "ran")).not.toThrow();
  });

  it("proven_second_factor: a password session is refused before the input is read; a code, a passkey or the bank's sign-in passes", async () => {
    for (const [method, expected] of [["password", false], ["totp", true], ["backup_code", true], ["passkey", true], ["sso", true]] as const) {
      const run = vi.fn(async () => "ran");
      const prepareInput = vi.fn(async (raw: unknown) => raw);
      const action = setUp(withSession("admin", method)).defineAction({ name: "test.proven_factor", schema: z.object({}), permission: "staff.manage", prepareInput }, run);
      const result = await action({ unread: true });
      if (expected) expect(result, method).toMatchObject({ ok: true, data: "ran" });
      else {
        expect(result, method).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "Sign out and sign in again with your second factor to do this." });
        expect(prepareInput).not.toHaveBeenCalled();
        expect(run).not.toHaveBeenCalled();
      }
    }
  });

  it("head_office_only: a branch supervisor is refused before the input is read; head office passes; a conditional one is the code's to check", async () => {
    const run = vi.fn(async () => "ran");
    const prepareInput = vi.fn(async (raw: unknown) => raw);
    const branch = setUp(fakeStaff("supervisor", KUMASI)).defineAction({ name: "test.head_office", schema: z.object({}), permission: "risk.cases", prepareInput }, run);
    expect(await branch({})).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "Only head office may do this." });
    expect(prepareInput).not.toHaveBeenCalled();
    const headOffice = setUp(fakeStaff("head_office_supervisor")).defineAction({ name: "test.head_office", schema: z.object({}), permission: "risk.cases" }, run);
    expect(await headOffice({})).toMatchObject({ ok: true });
    const conditional = setUp(fakeStaff("supervisor", KUMASI)).defineAction({ name: "test.head_office_when", schema: z.object({}), permission: "risk.cases" }, run);
    expect(await conditional({})).toMatchObject({ ok: true });
  });
});

describe("the request id staff quote", () => {
  it("is by default a short support code, the same in the failure and in every log line", async () => {
    const lines: Line[] = [];
    const defineAction = createActionWrapper({ sensitiveChanges: testChanges, getStaff: async () => fakeStaff("teller"), logger: recordingLogger(lines) });
    const action = defineAction({ name: "test.issue", schema: issueSchema, permission: "tokens.issue" }, async () => {
      throw new AppError("UPSTREAM_TIMEOUT", "no answer");
    });
    const first = await action(validInput);
    const second = await action(validInput);
    if (first.ok || second.ok) throw new Error("expected failures");
    expect(first.requestId).toMatch(/^[346789ABCDEFGHJKMNPQRTVWXY]{8}$/);
    expect(second.requestId).not.toBe(first.requestId);
    const logged = lines.filter((line) => line.bindings.requestId === first.requestId);
    expect(logged.map((line) => line.message)).toContain("action failed");
  });
});
