import { expect, type APIRequestContext, type Page, type Request } from "@playwright/test";

export { readActionResult } from "./action-calls";

/**
 * Calls a server action around the form, as a script or a second tab would: a real submit is
 * captured once (its action id and router headers), then its body is replayed or altered.
 */

export type CapturedAction = { url: string; headers: Record<string, string>; args: unknown[] };

/** Waits for the next server-action POST of the page; `block` stops it reaching the server. */
export async function captureNextAction(page: Page, trigger: () => Promise<void>, options: { block?: boolean } = {}): Promise<CapturedAction> {
  let captured: CapturedAction | undefined;
  const isAction = (request: Request) => request.method() === "POST" && request.headers()["next-action"] !== undefined;
  await page.route("**/*", async (route) => {
    const request = route.request();
    if (!captured && isAction(request)) {
      captured = { url: request.url(), headers: await request.allHeaders(), args: JSON.parse(request.postData() ?? "[]") as unknown[] };
      if (options.block) return route.abort();
    }
    return route.continue();
  });
  await trigger();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unroute("**/*");
  return captured!;
}

const forwardedHeaders = ["next-action", "next-router-state-tree", "content-type", "accept", "origin"];

/** Posts the action with other arguments; answers the raw RSC text of the response. */
export async function callAction(request: APIRequestContext, action: CapturedAction, args: unknown[]): Promise<{ status: number; text: string }> {
  const headers = Object.fromEntries(Object.entries(action.headers).filter(([name]) => forwardedHeaders.includes(name.toLowerCase())));
  const response = await request.post(action.url, { headers, data: JSON.stringify(args) });
  return { status: response.status(), text: await response.text() };
}
