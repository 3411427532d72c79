import { displayReference, erasedText } from "@/lib/pii/erasure-note";
import { maskIdNumber } from "@/lib/pii/mask";
import { reviewIdTypeLabels, reviewKindLabels, reviewStateLabels } from "./filters";
import type { CsvColumn } from "./csv";
import type { ExportTokenRow } from "./export-rows";
import { failureReasonOf } from "./failure-reason";
import { formatIsoDateTime } from "@/lib/bank-time";

/**
 * The columns of the token export, read straight from the export query's rows (export-rows.ts).
 * No server import here: the end-to-end tests read the header from this file.
 * The masked export is the only one most roles get; the full one adds the decrypted number in a
 * column of its own (head office, audited — ADR 0011).
 */
export const maskedExportColumns: CsvColumn<ExportTokenRow>[] = [
  { header: "Created (Accra time)", value: (row) => formatIsoDateTime(row.createdAtMs) },
  { header: "Token", value: (row) => row.token },
  { header: "Kind", value: (row) => reviewKindLabels[row.kind] },
  { header: "ID type", value: (row) => reviewIdTypeLabels[row.idType] },
  {
    header: "ID number (masked)",
    value: (row) => (row.idNumberLast4 !== null ? maskIdNumber(row.idType, row.idNumberLast4) : erasedText(row.identityErasedAtMs ?? 0, row.identityErasedUnder)),
  },
  { header: "Reference", value: (row) => displayReference(row.reference, { contactErasedAt: row.contactErasedAtMs === null ? null : new Date(row.contactErasedAtMs), contactErasedUnder: row.contactErasedUnder }) ?? "" },
  { header: "State", value: (row) => reviewStateLabels[row.state] },
  { header: "Branch", value: (row) => row.branchName },
  { header: "Teller", value: (row) => row.tellerName },
  { header: "Issued (Accra time)", value: (row) => formatIsoDateTime(row.issuedAtMs) },
  { header: "Finished (Accra time)", value: (row) => formatIsoDateTime(row.finishedAtMs) },
  { header: "Seconds to result", value: (row) => (row.msToResult === null ? null : Math.round(row.msToResult / 1000)) },
  { header: "Transaction number", value: (row) => row.transactionNumber },
  { header: "Error code", value: (row) => row.errorCode },
  { header: "Failure reason", value: (row) => failureReasonOf(row) },
];

export type FullIdExportRow = ExportTokenRow & { fullIdNumber: string };

export const fullIdExportColumns: CsvColumn<FullIdExportRow>[] = [
  ...(maskedExportColumns as CsvColumn<FullIdExportRow>[]).slice(0, 5),
  { header: "ID number (full)", value: (row) => row.fullIdNumber },
  ...(maskedExportColumns as CsvColumn<FullIdExportRow>[]).slice(5),
];

export const maskedExportHeader = maskedExportColumns.map((column) => column.header);
