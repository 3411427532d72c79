/**
 * GET of a live route, for the live screens (React Query) and the result notices: no cache, JSON,
 * and the errors the screens tell apart.
 * Also measures the server/browser clock offset at the moment the answer arrived.
 */
export class LiveFetchError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "LiveFetchError";
  }

  /** The session ended (signed out, idle, disabled): polling stops and the screen says so. */
  get isSessionEnded(): boolean {
    return this.status === 401;
  }

  get isGone(): boolean {
    return this.status === 403 || this.status === 404;
  }
}

/** Whether a poll that met this error asks no more: the session ended, or what it polls is gone or forbidden. */
export function endsPolling(error: unknown): boolean {
  return error instanceof LiveFetchError && (error.isSessionEnded || error.isGone);
}

export type Fetched<T> = { body: T; clockOffsetMs: number; etag?: string };

/**
 * `held`: what the page shows now. Its ETag goes out as `If-None-Match`; a 304 (nothing changed,
 * ADR 0026) answers with the held body and the server's clock from `X-Server-Now`.
 */
export async function fetchLive<T extends { serverNow: string }>(url: string, signal?: AbortSignal, held?: Fetched<T>): Promise<Fetched<T>> {
  const sentAt = Date.now();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (held?.etag) headers["If-None-Match"] = held.etag;
  const response = await fetch(url, { cache: "no-store", headers, signal });
  const receivedAt = Date.now();
  if (response.status === 304 && held) {
    const serverNow = response.headers.get("x-server-now") ?? held.body.serverNow;
    return { body: { ...held.body, serverNow }, clockOffsetMs: Date.parse(serverNow) - (sentAt + receivedAt) / 2, etag: held.etag };
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new LiveFetchError(response.status, problem?.message ?? `The server answered ${response.status}.`);
  }
  const body = (await response.json()) as T;
  // The server stamped `serverNow` somewhere between sending and receiving: take the middle.
  const clockOffsetMs = Date.parse(body.serverNow) - (sentAt + receivedAt) / 2;
  return { body, clockOffsetMs, etag: response.headers.get("etag") ?? undefined };
}
