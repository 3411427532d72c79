/**
 * Creates a staff account from the command line — the way to make the first administrator of a
 * production Veridesk, which has no default accounts.
 *
 *   npm run staff:create -- --role admin --username k.mensah --name "Kofi Mensah" \
 *     --branch ACC [--branch-name "Accra – Head Office"] [--password-stdin] [--break-glass]
 *
 * `--break-glass` (administrators only) marks an account that may still sign in with its password
 * and second factor when single sign-on is configured, for when the bank's identity provider is
 * down. Keep a handful; each of their sign-ins is audited as break-glass.
 * The password is asked twice without echo, or read from the first line of standard input with
 * `--password-stdin` (for automation: `printf '%s\n' "$PW" | npm run staff:create -- ...`).
 * `--branch-name` creates the branch when no branch has that code yet.
 * On PGlite it owns the data directory while it runs: stop the app first.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { z } from "zod";
import { isStaffRole, roleLabels, STAFF_ROLES } from "@/lib/domain/staff-roles";
import { closeDb, getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/staff/passwords";
import { branchCodeSchema, createStaffSchema } from "@/lib/staff/schemas";
import { createStaffAccount } from "@/lib/staff/accounts";
import { ensureBranch, listBranches } from "@/lib/staff/branches";

const usage = `Usage: npm run staff:create -- --role <${STAFF_ROLES.join("|")}> --username <username> --name "<full name>" --branch <CODE> [--branch-name "<name>"] [--password-stdin] [--break-glass]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: "string" },
      username: { type: "string" },
      name: { type: "string" },
      branch: { type: "string" },
      "branch-name": { type: "string" },
      "password-stdin": { type: "boolean", default: false },
      "break-glass": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (!values.role || !isStaffRole(values.role) || !values.username || !values.name || !values.branch) {
    throw new Error(`Missing or invalid options.\n${usage}`);
  }
  const isBreakGlass = values["break-glass"];
  if (isBreakGlass && values.role !== "admin") throw new Error("Only administrators can be break-glass accounts (--role admin).");
  const branchCode = branchCodeSchema.parse(values.branch);
  const actor = { system: "staff:create" };

  let branch = (await listBranches(await getDb())).find((candidate) => candidate.code === branchCode);
  if (!branch) {
    if (!values["branch-name"]) {
      const known = (await listBranches(await getDb())).map((candidate) => `${candidate.code} (${candidate.name})`).join(", ") || "none yet";
      throw new Error(`No branch with code ${branchCode}. Known branches: ${known}.\nAdd --branch-name "<name>" to create it.`);
    }
    const { branch: created } = await ensureBranch(await getDb(), actor, { code: branchCode, name: values["branch-name"].trim() });
    branch = { ...created, staffCount: 0 };
    console.log(`Created branch ${created.code} — ${created.name}.`);
  }

  const input = createStaffSchema.parse({ username: values.username, name: values.name, role: values.role, branchId: branch.id });
  const password = values["password-stdin"] ? await readFirstLine() : await askPasswordTwice();
  const passwordCheck = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX).safeParse(password);
  if (!passwordCheck.success) throw new Error(`The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);

  const { member } = await createStaffAccount(await getDb(), actor, { ...input, password, isBreakGlass });
  console.log(
    `Created ${isBreakGlass ? "break-glass " : ""}${roleLabels[member.role]} "${member.username}" (${member.name}) in ${member.branch.code} — ${member.branch.name}.`,
  );
}

async function readFirstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  const [line] = Buffer.concat(chunks).toString("utf8").split(/\r?\n/);
  if (!line) throw new Error("No password on standard input.");
  return line;
}

async function askPasswordTwice(): Promise<string> {
  if (!process.stdin.isTTY) throw new Error("No terminal to ask the password on: use --password-stdin.");
  const first = await askHidden("Password: ");
  const second = await askHidden("Password again: ");
  if (first !== second) throw new Error("The two passwords differ.");
  return first;
}

function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const prompter = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    // Echo nothing of what is typed: only the prompt itself is written.
    const output = prompter as unknown as { _writeToOutput: (text: string) => void };
    output._writeToOutput = (text: string) => {
      if (text.startsWith(prompt)) process.stdout.write(prompt);
    };
    prompter.question(prompt, (answer) => {
      prompter.close();
      process.stdout.write("\n");
      resolve(answer);
    });
  });
}

try {
  await main();
} catch (error) {
  const message = error instanceof z.ZodError ? error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n") : isAppError(error) ? error.userMessage + `\n(${error.message})` : error instanceof Error ? error.message : String(error);
  console.error(`staff:create failed.\n${message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
