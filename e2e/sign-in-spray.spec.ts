import http from "node:http";
import { ADDRESS_LIMITED_MESSAGE, addressPolicy } from "@/lib/auth/address-throttle";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { expect, test } from "@playwright/test";

/**
 * Password spraying against the app served directly (serve-app, `next start`, no balancer and no
 * trusted-proxy setting, as this run is): one password tried on 45 usernames, real and made up,
 * from one address. Each username stays under its own lock-out, so only the per-address limit
 * stops it (ADR 0039): after `addressPolicy.maxUsernames` usernames the address is paused, whatever
 * X-Forwarded-For or a forged peer header says, and other addresses sign in as before.
 *
 * The requests leave from an address of their own on the loopback network (127.0.0.x), so the
 * pause meets no other spec.
 */

type Answer = { status: number; code?: string; message?: string };

function signInFrom(localAddress: string, username: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const app = new URL(process.env.APP_URL!);
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: app.hostname,
        port: app.port,
        method: "POST",
        path: "/api/auth/sign-in/username",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: app.origin, ...headers },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const parsed = (() => {
            try {
              return JSON.parse(text) as { code?: string; message?: string };
            } catch {
              return {};
            }
          })();
          resolve({ status: response.statusCode ?? 0, code: parsed.code, message: parsed.message });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

test("one password on 45 usernames from one address: paused after the limit, whatever the headers say; other addresses sign in", async () => {
  test.setTimeout(120_000);
  const sprayer = `127.0.0.${10 + Math.floor(Math.random() * 240)}`;
  const run = Date.now().toString(36);
  const real = ["teller.accra", "supervisor.kumasi", "admin.second"] as const;
  // Real usernames early, in the middle and past the limit; the rest made up.
  const usernames = Array.from({ length: 45 }, (_, index) => `spray.${run}.${index}`);
  usernames[2] = real[0];
  usernames[11] = real[1];
  usernames[40] = real[2];

  const answers: Answer[] = [];
  for (const [index, username] of usernames.entries()) {
    // What a sprayer would try to look like many clients: neither is read without a trusted proxy.
    answers.push(await signInFrom(sprayer, username, "Spring2026!", { "x-forwarded-for": `10.20.${index}.7`, "x-veridesk-peer": `10.30.${index}.7` }));
  }
  const limit = addressPolicy.maxUsernames;
  expect(limit).toBeLessThan(45);
  expect(answers.slice(0, limit).map((answer) => answer.status)).toEqual(Array(limit).fill(401));
  expect(answers.slice(limit)).toEqual(Array(45 - limit).fill({ status: 429, code: "ADDRESS_LIMITED", message: ADDRESS_LIMITED_MESSAGE }));

  // Paused is paused: even the right password is not checked from there.
  const kumasi = demoAccount("teller.kumasi");
  expect(await signInFrom(sprayer, kumasi.username, kumasi.password)).toMatchObject({ status: 429, code: "ADDRESS_LIMITED" });
  // Another address is not: the same account signs in from it.
  expect((await signInFrom("127.0.0.1", kumasi.username, kumasi.password)).status).toBe(200);
  // The real accounts sprayed have one failure each, far from their own lock.
  for (const username of [real[0], real[1]]) expect((await signInFrom("127.0.0.1", username, demoAccount(username).password)).status, username).toBe(200);
});
