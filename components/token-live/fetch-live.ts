/**
 * GET of a live route for React Query: no cache, JSON, and the errors the screens tell apart.
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

export type Fetched<T> = { body: T; clockOffsetMs: number };

export async function fetchLive<T extends { serverNow: string }>(url: string, signal?: AbortSignal): Promise<Fetched<T>> {
  const sentAt = Date.now();
  const response = await fetch(url, { cache: "no-store", headers: { Accept: "application/json" }, signal });
  const receivedAt = Date.now();
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new LiveFetchError(response.status, problem?.message ?? `The server answered ${response.status}.`);
  }
  const body = (await response.json()) as T;
  // The server stamped `serverNow` somewhere between sending and receiving: take the middle.
  const clockOffsetMs = Date.parse(body.serverNow) - (sentAt + receivedAt) / 2;
  return { body, clockOffsetMs };
}
