import { reviewKindLabels, reviewStateLabels } from "./filters";
import type { CsvColumn } from "./csv";
import { formatBankDateTime } from "./format";
import type { ReviewTokenRow } from "./token-list";

/**
 * The columns of the token export. The masked export is the only one most roles get; the full
 * one adds the decrypted number in a column of its own (head office, audited — ADR 0011).
 */
export const maskedExportColumns: CsvColumn<ReviewTokenRow>[] = [
  { header: "Created (Accra time)", value: (row) => formatBankDateTime(row.createdAt) },
  { header: "Token", value: (row) => row.token },
  { header: "Kind", value: (row) => reviewKindLabels[row.kind] },
  { header: "ID type", value: (row) => row.idTypeLabel },
  { header: "ID number (masked)", value: (row) => row.maskedIdNumber },
  { header: "Reference", value: (row) => row.reference },
  { header: "State", value: (row) => reviewStateLabels[row.state] },
  { header: "Branch", value: (row) => row.branchName },
  { header: "Teller", value: (row) => row.tellerName },
  { header: "Issued (Accra time)", value: (row) => formatBankDateTime(row.issuedAt) },
  { header: "Finished (Accra time)", value: (row) => formatBankDateTime(row.finishedAt) },
  { header: "Seconds to result", value: (row) => row.secondsToResult },
  { header: "Transaction number", value: (row) => row.transactionNumber },
  { header: "Error code", value: (row) => row.errorCode },
];

export type FullIdExportRow = ReviewTokenRow & { fullIdNumber: string };

export const fullIdExportColumns: CsvColumn<FullIdExportRow>[] = [
  ...(maskedExportColumns as CsvColumn<FullIdExportRow>[]).slice(0, 5),
  { header: "ID number (full)", value: (row) => row.fullIdNumber },
  ...(maskedExportColumns as CsvColumn<FullIdExportRow>[]).slice(5),
];

export const maskedExportHeader = maskedExportColumns.map((column) => column.header);
