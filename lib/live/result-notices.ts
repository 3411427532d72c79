import type { LiveTokenSummary } from "./dto";

/**
 * Which of the teller's tokens ended since the notifier last looked (ADR 0028, results you notice),
 * pure so it is tested alone. The notifier follows every answer of today's list, whichever poll
 * fetched it, and keeps what it last saw of each token.
 *
 * A token ended when it is the teller's own, final now, and either was seen open before, or was
 * never seen at all but was issued or finished after the notifier began looking. The second case
 * is the teller who issues a token and moves on at once: a page's list is polled every few
 * seconds, and a quick customer can finish between two polls, so the token is never seen open.
 * Tokens already final when the notifier began (a reload, a new tab) are not news.
 */
export type NoticeWatch = {
  /** Each token seen: whether it was final then. */
  lastSeen: Map<string, boolean>;
  /** The server's time of the first answer looked at; null until then. */
  lookingSinceMs: number | null;
};

export function newNoticeWatch(): NoticeWatch {
  return { lastSeen: new Map(), lookingSinceMs: null };
}

/** Folds one answer (with the server's time of it) into the watch; returns the tokens that ended. */
export function tokensThatEnded(watch: NoticeWatch, tokens: readonly LiveTokenSummary[], serverNow: string): LiveTokenSummary[] {
  const isFirstLook = watch.lookingSinceMs === null;
  if (isFirstLook) watch.lookingSinceMs = Date.parse(serverNow);
  const lookingSinceMs = watch.lookingSinceMs!;
  const ended: LiveTokenSummary[] = [];
  for (const token of tokens) {
    if (!token.isMine) continue;
    const seenFinal = watch.lastSeen.get(token.id);
    watch.lastSeen.set(token.id, token.isFinal);
    if (isFirstLook || !token.isFinal || seenFinal === true) continue;
    const isNewSinceLooking = [token.createdAt, token.finishedAt].some((moment) => moment !== null && Date.parse(moment) > lookingSinceMs);
    if (seenFinal === false || isNewSinceLooking) ended.push(token);
  }
  return ended;
}
