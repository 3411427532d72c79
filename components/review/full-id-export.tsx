import { FileLock2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";

/**
 * Head office only: the export with full ID numbers, behind a disclosure and a typed reason. A
 * plain POST form — the browser downloads the answer — so the reason and the filters travel in
 * the body, and the download is audited with both.
 */
export function FullIdExport({ filterQuery }: { filterQuery: string }) {
  return (
    <details className="no-print rounded-card border border-line bg-surface px-4 py-3">
      <summary className="cursor-pointer font-semibold text-ink">
        <FileLock2 aria-hidden className="mr-2 inline size-5 align-text-bottom" />
        Export with full ID numbers
      </summary>
      <form method="post" action="/api/review/export-full" className="mt-3 flex flex-col gap-3">
        <p className="text-ink-muted">
          The file will hold customers&apos; full ID numbers. Keep it on bank systems only. The download and your reason are recorded in the audit trail.
        </p>
        <input type="hidden" name="filters" value={filterQuery} />
        <label htmlFor="full-export-reason" className="font-semibold">
          Reason for the full export
        </label>
        <Textarea id="full-export-reason" name="reason" required minLength={10} maxLength={300} placeholder="e.g. Request 2026/114 from Compliance" />
        <div>
          <Button type="submit" variant="secondary">
            Download with full ID numbers
          </Button>
        </div>
      </form>
    </details>
  );
}
