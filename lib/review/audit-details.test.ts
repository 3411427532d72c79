import { describe, expect, it } from "vitest";
import { auditDetailReferences, describeAuditDetails, type AuditNames } from "./audit-details";

const branchKum = "5a0f7c3e-1111-4a4a-8a8a-000000000001";
const teller = "user-0001";
const tellerUuid = "7b1e2d3c-2222-4b4b-9b9b-000000000002";
const token = "9c2d3e4f-3333-4c4c-8c8c-000000000003";
const names: AuditNames = {
  staff: { [teller]: { name: "Kwame Asante", username: "teller.kumasi" }, [tellerUuid]: { name: "Ama Owusu", username: "teller.accra" } },
  staffByUsername: { admin: "Akosua Darko", "admin.second": "Kofi Adjei" },
  branches: { [branchKum]: "Kumasi – Adum" },
  branchesByCode: { KUM: "Kumasi – Adum", ACC: "Accra – Head Office" },
  tokens: { [token]: "D002B5639" },
};

/** The words a compliance officer reads, as `label: value` or `label: before → after`. */
const words = (details: Record<string, unknown>) =>
  describeAuditDetails(details, names).map((line) => ("value" in line ? `${line.label}: ${line.value}` : `${line.label}: ${line.before} → ${line.after}${line.isChanged ? "" : " (unchanged)"}`));

describe("audit details in plain words", () => {
  it("labels a purpose's fields and lists ID documents by name", () => {
    expect(
      words({
        before: { name: "Account opening", allowsFingerprint: true, allowsRemote: false, remoteIdTypes: [], isActive: true },
        after: { name: "Account opening", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["GHANA_CARD", "PASSPORT"], isActive: false },
      }),
    ).toEqual([
      "Name: Account opening → Account opening (unchanged)",
      "Fingerprint tokens: yes → yes (unchanged)",
      "Remote tokens: no → yes",
      "Remote ID documents: none → Ghana Card, Passport",
      "In use: yes → no",
    ]);
  });

  it("names staff, branches and tokens instead of their ids, and drops ids that only link records", () => {
    expect(words({ kind: "role_change", username: "teller.kumasi", subjectUserId: teller, approvalId: "0f0f0f0f-aaaa-4aaa-8aaa-000000000009", proposedBy: "admin", approvedBy: "admin.second" })).toEqual([
      "Kind: Change of role or branch",
      "Username: teller.kumasi",
      "Account: Kwame Asante (teller.kumasi)",
      "Proposed by: Akosua Darko (admin)",
      "Approved by: Kofi Adjei (admin.second)",
    ]);
    expect(words({ before: { name: "Kwame Asante", role: "teller", branch: "KUM" }, after: { name: "Kwame Asante", role: "supervisor", branch: "ACC" } })).toEqual([
      "Name: Kwame Asante → Kwame Asante (unchanged)",
      "Role: Teller → Branch supervisor",
      "Branch: Kumasi – Adum (KUM) → Accra – Head Office (ACC)",
    ]);
    expect(words({ ownBranchTokenIds: [token], otherBranchTokens: 1 })).toEqual(["This branch's active tokens: D002B5639", "Active tokens at other branches: 1"]);
    expect(words({ staffId: "1d2e3f40-4444-4d4d-8d8d-000000000004" })).toEqual(["Staff id: a record no longer on file"]);
  });

  it("decodes filters instead of showing the filter string", () => {
    expect(words({ filters: `state=failed&state=expired&branch=${branchKum}&teller=${tellerUuid}&from=2026-11-20&to=2026-11-24`, idNumbers: "masked" })).toEqual([
      "Filters: State: Failed or Expired · From 20 Nov 2026 to 24 Nov 2026 · Branch: Kumasi – Adum · Teller: Ama Owusu (teller.accra)",
      "ID numbers: masked",
    ]);
    expect(words({ filters: "(none)" })).toEqual(["Filters: none (every token in reach)"]);
    expect(words({ filter: { staffUserId: teller, action: "token.id_revealed", from: "2026-11-24", to: "2026-11-24" } })).toEqual([
      "Filters: Staff member: Kwame Asante (teller.kumasi) · Event: ID number revealed · On 24 Nov 2026",
    ]);
  });

  it("writes times and days in the bank's format, reasons in words, and leaves out what has no value", () => {
    expect(words({ reason: "locked", lockedUntil: "2026-11-24T14:05:00.000Z", ip: null, day: "2026-11-24", trigger: "schedule", isDemo: false })).toEqual([
      "Reason: account locked",
      "Locked until: 24 Nov 2026, 14:05",
      "Day: 24 Nov 2026",
      "Started by: the daily schedule",
      "Demo account: no",
    ]);
  });

  it("never shows a developer's key or a raw id", () => {
    const shown = words({
      isActive: true,
      remoteIdTypes: ["VOTER"],
      mustChangePassword: true,
      subjectUserId: teller,
      filters: `branch=${branchKum}`,
      someNewField: 3,
    }).join("\n");
    expect(shown).not.toMatch(/isActive|remoteIdTypes|mustChangePassword|subjectUserId|someNewField|VOTER|[0-9a-f]{8}-[0-9a-f]{4}|user-0001|branch=/);
    expect(shown).toContain("Some new field: 3");
  });

  it("lists the ids and usernames to look names up for", () => {
    expect(auditDetailReferences({ subjectUserId: tellerUuid, proposedBy: "admin", filters: `branch=${branchKum}&teller=${tellerUuid}`, ownBranchTokenIds: [token] })).toEqual({
      ids: [tellerUuid, branchKum, token],
      usernames: ["admin"],
    });
  });
});
