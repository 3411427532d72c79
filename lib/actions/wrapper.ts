import { z } from "zod";
import { branchScopeFor, type BranchScope } from "@/lib/auth/branch-scope";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { sensitiveChanges as declaredChanges, unmetControl, type ActionName, type SensitiveChange } from "@/lib/auth/sensitive-changes";
import type { Staff } from "@/lib/auth/types";
import { AppError, errorCatalog, toAppError, type FieldErrors } from "@/lib/errors";
import { withRequestId } from "@/lib/request-context";
import { newSupportCode } from "@/lib/support/support-code";
import { containsNul } from "@/lib/validation/query-values";
import type { ActionFailure, ActionResult } from "./result";

/**
 * The one wrapper of every server action (ADR 0004), in a fixed order:
 *
 *   authenticate → refuse a temporary password → check the role's permission → check the
 *   action's declared controls → complete the input on the server, if the action does
 *   (prepareInput) → parse the input (zod) → authorise against the parsed input (branch,
 *   ownership) → run → a typed ActionResult.
 *
 * Every action's name is in the one list of sensitive changes (lib/auth/sensitive-changes.ts,
 * ADR 0051): defining an action under any other name throws, so its module does not load. The
 * controls the list declares that need no record (a proven second factor, head office only) are
 * checked here; the others are named there with the code that checks them.
 *
 * The permission and those controls need no input, so they are checked before parsing: a teller
 * calling an admin action learns "not allowed", not the shape of the admin form. AppErrors become their code and
 * user message; anything else becomes INTERNAL. Every log line carries the request id, which the
 * failure result returns too.
 *
 * This file takes its collaborators as arguments so tests can run it with fakes;
 * lib/actions/index.ts binds the real ones.
 */

type LogFn = (object: Record<string, unknown>, message: string) => void;
export type ActionLogger = { info: LogFn; warn: LogFn; error: LogFn; child(bindings: Record<string, unknown>): ActionLogger };

export type ActionDependencies = {
  /** The signed-in staff member of the current request, or null. */
  getStaff: () => Promise<Staff | null>;
  logger: ActionLogger;
  newRequestId?: () => string;
  /** Re-throws framework control flow (Next's redirect/notFound) that must not become a result. */
  rethrowControlFlow?: (error: unknown) => void;
};

/** The list an action's name is looked up in: the real one, or a test's own. */
export type DeclaredChanges<Name extends string> = Readonly<Record<Name, SensitiveChange>>;

export type ActionContext<Input> = {
  input: Input;
  staff: Staff;
  scope: BranchScope;
  requestId: string;
  log: ActionLogger;
};

export type ActionDefinition<Schema extends z.ZodType, Raw = z.input<Schema>, Name extends string = ActionName> = {
  /** Its entry in the list of sensitive changes, and its name in logs: "staff.create". */
  name: Name;
  schema: Schema;
  /** The permission the role must have; null = any signed-in staff member. */
  permission: Permission | null;
  /**
   * Lets staff still on a temporary password through (ADR 0012): only signing out and choosing
   * the new password. Every other action answers PASSWORD_CHANGE_REQUIRED to them.
   */
  allowsPendingPasswordChange?: boolean;
  /**
   * Lets a session that must set up a second factor and has none through: only signing out and
   * the enrolment itself. Every other action answers SECOND_FACTOR_REQUIRED to it (after the
   * temporary password: PASSWORD_CHANGE_REQUIRED comes first).
   */
  allowsPendingSecondFactor?: boolean;
  /**
   * Completes what the browser sent with what it must never hold, before the parse: a new token's
   * details carried over from an earlier one are filled in here (lib/tokens/restart-values.ts),
   * so they are checked like typed ones. Throw AppError to refuse.
   */
  prepareInput?: (raw: Raw, context: { staff: Staff; requestId: string }) => Promise<unknown>;
  /** Checks against the parsed input; throw AppError FORBIDDEN / NOT_FOUND to refuse. */
  authorize?: (context: Omit<ActionContext<z.output<Schema>>, "log">) => void | Promise<void>;
};

export type ServerAction<Schema extends z.ZodType, Data, Raw = z.input<Schema>> = (input: Raw) => Promise<ActionResult<Data>>;

export function createActionWrapper<Name extends string = ActionName>(dependencies: ActionDependencies & { sensitiveChanges?: DeclaredChanges<Name> }) {
  const newRequestId = dependencies.newRequestId ?? newSupportCode;
  const changes: Readonly<Record<string, SensitiveChange>> = dependencies.sensitiveChanges ?? declaredChanges;

  return function defineAction<Schema extends z.ZodType, Data, Raw = z.input<Schema>>(
    definition: ActionDefinition<Schema, Raw, Name>,
    run: (context: ActionContext<z.output<Schema>>) => Promise<Data>,
  ): ServerAction<Schema, Data, Raw> {
    // "METHOD /path" entries are routes': an action never borrows one.
    const declared = Object.hasOwn(changes, definition.name) && !definition.name.includes(" /") ? changes[definition.name] : undefined;
    if (!declared) {
      throw new Error(`server action "${definition.name}" has no declared control: add it to lib/auth/sensitive-changes.ts (ADR 0051)`);
    }
    return async (rawInput) => {
      const requestId = newRequestId();
      let log = dependencies.logger.child({ requestId, action: definition.name });
      try {
        const staff = await dependencies.getStaff();
        if (!staff) throw new AppError("UNAUTHENTICATED", "no valid session");
        log = log.child({ userId: staff.userId });
        if (staff.mustChangePassword) {
          if (!definition.allowsPendingPasswordChange) throw new AppError("PASSWORD_CHANGE_REQUIRED", "temporary password not yet replaced");
        } else if (staff.mustEnrolSecondFactor && !definition.allowsPendingSecondFactor) {
          throw new AppError("SECOND_FACTOR_REQUIRED", "second factor not yet set up");
        }
        if (definition.permission && !hasPermission(staff.role, definition.permission)) {
          throw new AppError("FORBIDDEN", `role ${staff.role} lacks ${definition.permission}`);
        }
        const unmet = unmetControl(declared.controls, staff);
        if (unmet) throw new AppError("FORBIDDEN", `${definition.name} is ${unmet}: refused to a ${staff.session.signInMethod} session of ${staff.role}`, { userMessage: unmetControlMessages[unmet] });

        // `\0` is never meaningful input, and PostgreSQL refuses it with an error: refused here,
        // whatever the action's schema says about the field.
        if (containsNul(rawInput)) {
          log.info({ code: "VALIDATION" }, "action input refused: NUL character");
          return failure("VALIDATION", requestId, {}, errorCatalog.VALIDATION.userMessage);
        }
        const input = definition.prepareInput ? await withRequestId(requestId, () => definition.prepareInput!(rawInput, { staff, requestId })) : rawInput;
        const parsed = await definition.schema.safeParseAsync(input);
        if (!parsed.success) {
          const { formErrors, fieldErrors } = collectIssues(parsed.error);
          log.info({ code: "VALIDATION", fields: Object.keys(fieldErrors) }, "action input refused");
          return failure("VALIDATION", requestId, fieldErrors, formErrors[0] ?? errorCatalog.VALIDATION.userMessage);
        }

        const scope = branchScopeFor(staff);
        const context = { input: parsed.data, staff, scope, requestId };
        await definition.authorize?.(context);
        // Everything the action calls logs under its request id, the upstream client included.
        const data = await withRequestId(requestId, () => run({ ...context, log }));
        log.info({}, "action done");
        return { ok: true, data };
      } catch (error) {
        dependencies.rethrowControlFlow?.(error);
        const appError = toAppError(error);
        const status = errorCatalog[appError.code].httpStatus;
        const entry = { code: appError.code, internal: appError.message, err: status >= 500 ? error : undefined };
        if (status >= 500) log.error(entry, "action failed");
        else log.info(entry, "action refused");
        return { ...failure(appError.code, requestId, appError.fieldErrors ?? {}, appError.userMessage), ...(appError.subjectId ? { subjectId: appError.subjectId } : {}) };
      }
    };
  };
}

const unmetControlMessages = {
  proven_second_factor: "Sign out and sign in again with your second factor to do this.",
  head_office_only: "Only head office may do this.",
} as const;

function failure(code: ActionFailure["code"], requestId: string, fieldErrors: FieldErrors, formError?: string): ActionFailure {
  return { ok: false, code, formError, fieldErrors, requestId };
}

/**
 * Every issue of a failed parse: nested fields keyed by their dotted path ("options.sendSms",
 * matching react-hook-form's field names), issues of the whole input as form errors.
 */
export function collectIssues(error: z.ZodError): { formErrors: string[]; fieldErrors: FieldErrors } {
  const formErrors: string[] = [];
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    if (!path) formErrors.push(issue.message);
    else (fieldErrors[path] ??= []).push(issue.message);
  }
  return { formErrors, fieldErrors };
}
