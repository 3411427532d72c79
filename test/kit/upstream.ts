import "server-only";
import { createLogger } from "@/lib/logger";

/** Helpers for the upstream tests only. */

export type ScriptedAnswer =
  | { status?: number; json?: unknown; text?: string; contentType?: string; headers?: Record<string, string> }
  | "network-error"
  | "never-answers";

export type RecordedRequest = { method: string; url: URL; headers: Headers; body: BodyInit | null | undefined };

/** A fetch that plays the given answers in order (the last one repeats) and records each request. */
export function scriptFetch(...answers: ScriptedAnswer[]) {
  const requests: RecordedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    requests.push({
      method: init?.method ?? "GET",
      url: new URL(input instanceof Request ? input.url : input.toString()),
      headers: new Headers(init?.headers),
      body: init?.body,
    });
    const answer = answers[Math.min(requests.length, answers.length) - 1] ?? {};
    if (answer === "network-error") {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    }
    // Ignores the abort signal on purpose: the client must time out even when fetch does not.
    if (answer === "never-answers") return new Promise<Response>(() => {});
    const body = answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json));
    return new Response(body, {
      status: answer.status ?? 200,
      headers: { "content-type": answer.contentType ?? "application/json", ...answer.headers },
    });
  };
  return { fetch, requests };
}

/** A logger with the app's configuration whose output the test can read. */
export function captureLogs() {
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", destination: { write: (line: string) => void lines.push(line) } });
  return {
    logger,
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
