import type { APIRequestContext } from "@playwright/test";
import { parseCsv } from "@/test/kit/csv";
import { demoAccount, type DemoUsername } from "@/lib/staff/demo-accounts";
import { pages, routes, type Audience } from "./access-matrix";
import { requestWith, signInByApi } from "@/e2e/support/auth";
import { resolveAction } from "@/e2e/support/action-calls";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { expect, test } from "./support/session";

/**
 * What another site can make a signed-in browser do: nothing. A link to any page or GET route
 * (a top-level navigation, the one cross-site request that carries the session cookie) writes no
 * audit event, and a server action posted from another origin is refused with 403 (Next's own
 * refusal answered 500).
 */

/** Who requests each entry: the first of these its audience allows (supervisors first: their views are audited). */
const actorsByPreference: DemoUsername[] = ["supervisor.kumasi", "supervisor.hq", "teller.kumasi", "admin"];

function actorOf(audience: Audience): DemoUsername {
  if (audience.kind === "public") return "supervisor.kumasi";
  const actor = actorsByPreference.find((username) => audience.roles.includes(demoAccount(username).role));
  if (!actor) throw new Error(`no demo account for ${JSON.stringify(audience)}`);
  return actor;
}

/** A token of teller.kumasi whose opening writes when it is Veridesk's own: a supervisor's view is audited. */
const tokenId = liveFixtures.unknownFingerprint.id;

/** Audit events by these staff members (the count's own exports left out), read from the trail's export: "who event subject request". */
async function eventsBy(exporter: APIRequestContext, usernames: readonly string[]): Promise<string[]> {
  const response = await exporter.get("/api/review/audit-export");
  expect(response.status()).toBe(200);
  const [header, ...rows] = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
  const [who, code, subject, requestId] = ["Who", "Event code", "Subject", "Request id"].map((name) => header!.indexOf(name));
  expect(Math.min(who!, code!, subject!, requestId!)).toBeGreaterThanOrEqual(0);
  return rows
    .filter((row) => usernames.includes(row[who!]!) && row[code!] !== "audit.exported")
    .map((row) => [row[who!], row[code!], row[subject!], row[requestId!]].join(" "));
}

const added = (before: string[], after: string[]) => after.filter((row) => !before.includes(row));

test("a link from another site to any page or GET route writes no audit event; the same links from Veridesk itself still record a supervisor's view", async () => {
  test.setTimeout(180_000);
  const contexts = new Map<DemoUsername, APIRequestContext>();
  for (const username of actorsByPreference) contexts.set(username, await requestWith(await signInByApi(username, demoAccount(username).password)));
  const exporter = contexts.get("supervisor.hq")!;
  const requests = [
    ...pages.map((page) => ({ url: page.urlOfTokenRequest?.(tokenId) ?? page.url, actor: actorOf(page.audience) })),
    ...routes.flatMap((route) => (route.methods.GET ? [{ url: route.urlOfTokenRequest?.(tokenId) ?? route.url, actor: actorOf(route.methods.GET) }] : [])),
    // The old way to verify the trail: a GET that recomputed the chain and recorded the check.
    { url: "/admin/audit?verify=1", actor: "supervisor.hq" as const },
  ];
  expect(requests.some((entry) => entry.url === `/review/tokens/${tokenId}`)).toBe(true);

  const before = await eventsBy(exporter, actorsByPreference);
  for (const { url, actor } of requests) {
    const response = await contexts.get(actor)!.get(url, { headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }, maxRedirects: 0 });
    expect(response.status(), `${actor} on ${url}`).toBeLessThan(500);
    if ([`/tokens/${tokenId}`, `/review/tokens/${tokenId}`].includes(url)) expect(await response.text(), url).toContain("You followed a link from another site");
  }
  expect(added(before, await eventsBy(exporter, actorsByPreference)), "audit events written by another site's links").toEqual([]);

  // The counter is not blind: the same two token links from Veridesk's own pages record the views.
  const supervisor = contexts.get("supervisor.kumasi")!;
  for (const url of [`/tokens/${tokenId}`, `/review/tokens/${tokenId}`]) {
    const response = await supervisor.get(url, { headers: { "sec-fetch-site": "same-origin" }, maxRedirects: 0 });
    expect(response.status(), url).toBe(200);
    expect(await response.text(), url).not.toContain("You followed a link from another site");
  }
  expect(added(before, await eventsBy(exporter, actorsByPreference)).map((row) => row.split(" ").slice(0, 3).join(" "))).toEqual([
    `supervisor.kumasi token.viewed_by_supervisor token_request:${tokenId}`,
    `supervisor.kumasi token.viewed_by_supervisor token_request:${tokenId}`,
  ]);
  for (const context of contexts.values()) await context.dispose();
});

test("a server action posted from another site answers 403, and the same call from Veridesk's own page still works", async () => {
  const supervisor = await requestWith(await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password));
  const action = resolveAction({ file: "app/(staff)/review/reconciliation/actions.ts", name: "recordReconciliationPrintedAction" });
  const call = (origin: string | undefined) =>
    supervisor.post(action.pagePath, {
      headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", ...(origin ? { origin } : {}) },
      data: JSON.stringify([{ branchId: "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b", day: "2026-11-02" }]),
      maxRedirects: 0,
    });
  for (const origin of ["https://evil.example", "null"]) {
    const refused = await call(origin);
    expect(refused.status(), origin).toBe(403);
    expect(await refused.text()).toBe("This request did not come from Veridesk's own pages.");
  }
  // From Veridesk itself the action runs (and refuses the other branch as "not found").
  const own = await call(process.env.APP_URL);
  expect(own.status()).toBe(200);
  expect(await own.text()).toContain('"code":"NOT_FOUND"');
  await supervisor.dispose();
});
