/**
 * Proposes a webhook endpoint from the command line — how an operator connects a receiver from
 * the server's console:
 *
 *   npm run webhooks:add -- --url https://onboarding.bank.internal/veridesk --events token.finished \
 *     [--description "Onboarding app"]
 *
 * It waits, as one added on the admin page does, for an administrator to approve it on
 * Administration → Webhooks; the approval makes the signing secret and shows it to that
 * administrator, once (ADR 0052). So the operator never holds a secret the bank's receiver trusts,
 * and nothing is printed that a shell history or a log could keep. The audit trail records the
 * proposal as `webhooks:add`. On PGlite it owns the data directory while it runs: stop the app first.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeDb, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { proposeEndpointAsOperator, urlRulesFrom } from "@/lib/webhooks/endpoints";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/webhooks/schemas";
import { urlProblemOf } from "@/lib/webhooks/send";

const usage = `Usage: npm run webhooks:add -- --url <https://…> --events ${SUBSCRIBABLE_EVENT_TYPES.join(",")} [--description "<what it is>"]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      events: { type: "string", default: "token.finished" },
      description: { type: "string", default: "" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (!values.url) throw new Error(`Missing --url.\n${usage}`);
  const settings = env();
  const rules = urlRulesFrom(settings);
  // Checked before the database opens (the same check runs again inside): a wrong URL fails fast.
  const problem = urlProblemOf(values.url, rules);
  if (problem) throw new Error(`The URL ${problem}.`);
  const events = values.events.split(",").map((entry) => entry.trim()).filter(Boolean);
  const endpoint = await proposeEndpointAsOperator(
    await getDb(),
    "webhooks:add",
    { url: values.url, events: events as Array<(typeof SUBSCRIBABLE_EVENT_TYPES)[number]>, description: values.description },
    rules,
    new Date(),
  );
  console.log(`Proposed webhook endpoint ${endpoint.id} for ${endpoint.events.join(", ")} at ${endpoint.url}.`);
  console.log("It receives nothing until an administrator approves it on Administration → Webhooks; the approval shows them its signing secret, once.");
}

try {
  await main();
} catch (error) {
  const message = error instanceof z.ZodError ? error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n") : isAppError(error) ? error.userMessage + `\n(${error.message})` : error instanceof Error ? error.message : String(error);
  console.error(`webhooks:add failed.\n${message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
