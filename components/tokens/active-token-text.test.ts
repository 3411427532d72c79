import { describe, expect, it } from "vitest";
import { describeActiveToken } from "./active-token-text";

const base = {
  isOwnBranch: true as const,
  tokenRequestId: "5b0c0d4e-0000-4000-8000-000000000001",
  kind: "remote" as const,
  idType: "GHANA_CARD",
  createdAt: "2026-11-24T10:41:58.000Z",
  issuedAt: "2026-11-24T10:42:03.000Z",
  expiresAt: "2026-11-24T10:57:03.000Z",
  issuedByName: "Ama Owusu",
};

describe("the same-customer warning names where the token stands", () => {
  it("a token waiting for the customer, with the minutes left on the server's clock", () => {
    expect(describeActiveToken({ ...base, state: "waiting", checkedAt: "2026-11-24T10:47:30.000Z" })).toBe(
      "A remote Ghana Card token waiting for the customer (issued 10:42 by Ama Owusu, 9 min left)",
    );
    expect(describeActiveToken({ ...base, state: "waiting", checkedAt: "2026-11-24T10:56:30.000Z" })).toContain("under a minute left");
  });

  it("a token the customer has started, and one still being issued", () => {
    expect(describeActiveToken({ ...base, state: "in_progress", checkedAt: "2026-11-24T10:50:00.000Z" })).toBe(
      "A remote Ghana Card token the customer has started (issued 10:42 by Ama Owusu): the result is not in yet",
    );
    expect(describeActiveToken({ ...base, kind: "fingerprint", state: "being_issued", issuedAt: null, expiresAt: null, checkedAt: "2026-11-24T10:42:10.000Z" })).toBe(
      "A fingerprint Ghana Card token being issued right now (asked for at 10:41 by Ama Owusu)",
    );
  });
});
