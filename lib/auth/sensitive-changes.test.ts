import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getEndpoints } from "better-auth/api";
import { twoFactor, username } from "better-auth/plugins";
import { describe, expect, it, vi } from "vitest";
import { STAFF_ROLES } from "@/lib/domain/staff-roles";
import { passkeyPaths } from "@/lib/auth/passkey/dto";
import { SSO_CALLBACK_PATH, SSO_START_PATH } from "@/lib/auth/sso/provider";
import { pluginEndpoints, serverActions, writingRoutes } from "@/test/kit/writers";
import { hasPermission, type Permission } from "./permissions";
import { isHeadOffice, sensitiveChanges, type Control } from "./sensitive-changes";
import { mustHaveSecondFactor } from "./two-factor/policy";

/**
 * The list of sensitive changes holds every writer the code has (ADR 0051): every server action,
 * every route handler answering a writing method, every better-auth endpoint the catch-all route
 * lets through — and nothing that no longer exists. A writer added without a declared control
 * fails here, by name.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));

// The catch-all route's own handler stands in for better-auth: what reaches it is let through.
vi.mock("@/lib/auth/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/server")>()),
  handleAuthRequest: async () => new Response("let through"),
}));

const AUTH_CATCH_ALL = "/api/auth/[...all]";

/** The constants our plugins' createAuthEndpoint calls name their paths with. */
const pathConstants: Record<string, unknown> = { passkeyPaths, SSO_START_PATH, SSO_CALLBACK_PATH };
const resolvePath = (expression: string): string | undefined => {
  const value = expression.split(".").reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], pathConstants);
  return typeof value === "string" ? value : undefined;
};

/** Every better-auth endpoint that could be behind /api/auth: its own, its plugins' we use, ours. */
function authEndpointPaths(): { paths: string[]; problems: string[] } {
  const builtIn = getEndpoints({} as never, { plugins: [twoFactor({ issuer: "Veridesk" }), username()] }).api as Record<string, { path?: string }>;
  const ours = pluginEndpoints(root, resolvePath);
  const paths = [...Object.values(builtIn).map((endpoint) => endpoint.path), ...ours.found.map((endpoint) => endpoint.path)]
    .filter((candidate): candidate is string => typeof candidate === "string")
    .map((candidate) => candidate.replace(/:[a-zA-Z]+/g, "bank"));
  return { paths: [...new Set(paths)].sort(), problems: ours.problems };
}

/** What app/api/auth/[...all] lets through, as "METHOD /api/auth/…", by asking the route itself. */
async function exposedAuthEndpoints(paths: string[]): Promise<string[]> {
  const route = await import("@/app/api/auth/[...all]/route");
  const exposed: string[] = [];
  for (const candidate of paths) {
    for (const method of ["GET", "POST"] as const) {
      const response = await route[method](new Request(`http://veridesk.test/api/auth${candidate}`, { method }));
      if ((await response.text()) === "let through") exposed.push(`${method} /api/auth${candidate}`);
    }
  }
  return exposed;
}

describe("the list of sensitive changes", () => {
  it("declares every writer in the code, and nothing that is gone", async () => {
    const actions = serverActions(root);
    const routes = writingRoutes(root);
    const auth = authEndpointPaths();
    // The enumeration reads real code: a parser that found nothing would pass anything.
    expect(actions.found.length).toBeGreaterThan(50);
    expect(auth.paths).toContain(passkeyPaths.verifyRegistration);

    const exposed = await exposedAuthEndpoints(auth.paths);
    expect(exposed, "the catch-all lets at least the password sign-in through").toContain("POST /api/auth/sign-in/username");
    const writers = new Map<string, string>([
      ...actions.found.map((action) => [action.name, `${action.file} (server action)`] as const),
      ...routes.found.filter((route) => !route.key.endsWith(` ${AUTH_CATCH_ALL}`)).map((route) => [route.key, route.file] as const),
      ...exposed.map((endpoint) => [endpoint, "app/api/auth/[...all]/route.ts (better-auth)"] as const),
    ]);
    const duplicates = actions.found.filter((action, index) => actions.found.findIndex((other) => other.name === action.name) !== index);
    expect(duplicates.map((action) => `${action.name} in ${action.file}`), "two actions under one name").toEqual([]);

    const declared = new Set(Object.keys(sensitiveChanges));
    const undeclared = [...writers].filter(([name]) => !declared.has(name)).map(([name, file]) => `undeclared: ${name} — ${file}: add it to lib/auth/sensitive-changes.ts with its control`);
    const gone = [...declared].filter((name) => !writers.has(name)).map((name) => `gone: ${name} is declared but no longer exists: remove it from lib/auth/sensitive-changes.ts`);
    expect([...actions.problems, ...routes.problems, ...auth.problems, ...undeclared, ...gone]).toEqual([]);
  });

  const entries = Object.entries(sensitiveChanges) as Array<[string, { changes: string; controls: readonly Control[] }]>;
  const exists = (file: string) => fs.existsSync(path.join(root, file));
  const defines = (file: string, fn: string) => exists(file) && new RegExp(`function ${fn}\\b`).test(fs.readFileSync(path.join(root, file), "utf8"));

  it("names, for every two-person change and every head-office rule on the record, the code that checks it and the test that proves it", () => {
    const broken: string[] = [];
    for (const [name, { controls }] of entries) {
      for (const control of controls) {
        const checked = control.kind === "two_people" ? control.secondPerson : control.kind === "head_office_only" && control.when !== undefined ? control.checkedIn : null;
        const provenBy = control.kind === "two_people" || (control.kind === "head_office_only" && control.when !== undefined) ? control.provenBy : null;
        if (checked && !defines(checked.file, checked.by)) broken.push(`${name}: ${checked.file} defines no function ${checked.by}`);
        if (provenBy && !exists(provenBy)) broken.push(`${name}: ${provenBy} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("lets an ordinary change carry no other control, and gives every change a sentence", () => {
    for (const [name, { changes, controls }] of entries) {
      expect(changes.length, name).toBeGreaterThan(5);
      if (controls.some((control) => control.kind === "ordinary")) expect(controls, name).toHaveLength(1);
    }
  });

  it("asks a proven second factor only of actions every holder of which must have one, so nobody is locked out of their own work", () => {
    const { found } = serverActions(root);
    const locked: string[] = [];
    for (const action of found) {
      const controls: readonly Control[] = (sensitiveChanges as Record<string, { controls: readonly Control[] }>)[action.name]?.controls ?? [];
      if (!controls.some((control) => control.kind === "proven_second_factor")) continue;
      const holders = STAFF_ROLES.filter((role) => action.permission === null || hasPermission(role, action.permission as Permission));
      for (const role of holders) if (!mustHaveSecondFactor(role, "admins")) locked.push(`${action.name}: ${role} may call it and need not have a second factor`);
    }
    expect(locked).toEqual([]);
  });

  it("gives a head-office-only route a permission only head office holds", () => {
    const { found } = writingRoutes(root);
    for (const route of found) {
      const controls: readonly Control[] = (sensitiveChanges as Record<string, { controls: readonly Control[] }>)[route.key]?.controls ?? [];
      if (!controls.some((control) => control.kind === "head_office_only" && control.when === undefined)) continue;
      expect(route.permission, route.key).not.toBeNull();
      const holders = STAFF_ROLES.filter((role) => hasPermission(role, route.permission as Permission));
      expect(holders.filter((role) => !isHeadOffice({ role })), route.key).toEqual([]);
    }
  });
});
