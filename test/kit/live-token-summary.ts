import type { LiveTokenSummary } from "@/lib/live/dto";

/** One token as today's list answers it, for the browser-side tests: a waiting fingerprint token of the viewer's, unless told otherwise. */
export function liveTokenSummary(id: string, fields: Partial<LiveTokenSummary> = {}): LiveTokenSummary {
  return {
    id,
    token: `T${id}`,
    kind: "fingerprint",
    idType: "GHANA_CARD",
    idTypeLabel: "Ghana Card",
    maskedIdNumber: "•••• 7890",
    reference: `R${id}`,
    state: "waiting",
    stateLabel: "Waiting",
    isFinal: false,
    outcomeUnknownReason: null,
    serviceProblem: null,
    createdAt: "2026-11-24T10:00:00.000Z",
    issuedAt: "2026-11-24T10:00:01.000Z",
    expiresAt: "2026-11-24T10:15:01.000Z",
    finishedAt: null,
    tellerName: "Ama",
    isMine: true,
    result: null,
    ...fields,
  };
}
