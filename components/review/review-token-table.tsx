"use client";

import {
  createColumnHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useMemo, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { reviewKindLabels, reviewSortKeys, toSearchParams, type ReviewListQuery, type ReviewSortKey } from "@/lib/review/filters";
import { formatDate, formatTime } from "@/lib/bank-time";
import { formatCount, formatDuration } from "@/lib/review/format";
import type { ReviewTokenRow } from "@/lib/review/dto";
import { ReviewStateBadge } from "./review-state-badge";

/**
 * The supervisor's token list. The database sorts and pages (there may be hundreds of thousands
 * of rows); @tanstack/react-table keeps the column model and the sorting/paging state, which
 * lives in the URL: clicking a header or a page link changes the URL, and the server renders
 * the new page. Headers are buttons with aria-sort; page links are real links (they work
 * without JavaScript, and can be opened in a new tab).
 */

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature });
const column = createColumnHelper<typeof features, ReviewTokenRow>();

const sortableIds: ReadonlySet<string> = new Set(reviewSortKeys);

type ReviewTokenTableProps = {
  rows: ReviewTokenRow[];
  query: ReviewListQuery;
  total: number;
  isCountCapped: boolean;
  pageCount: number;
  /** Head office sees the branch column; a branch supervisor knows their branch. */
  showBranch: boolean;
  /** Where a row's detail page is: `${detailBase}/${id}`. */
  detailBase: string;
  caption: string;
};

export function ReviewTokenTable({ rows, query, total, isCountCapped, pageCount, showBranch, detailBase, caption }: ReviewTokenTableProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [isNavigating, startNavigation] = useTransition();

  const columns = useMemo(
    () =>
      column.columns([
        // The token first: it names the row, so it is the column that stays when the table scrolls sideways.
        column.accessor("token", {
          id: "token",
          header: "Token",
          enableSorting: false,
          cell: (info) => (
            <Link href={`${detailBase}/${info.row.original.id}`} prefetch={false} className="font-semibold whitespace-nowrap text-brand-700 underline-offset-2 hover:underline pointer-coarse:inline-flex pointer-coarse:min-h-11 pointer-coarse:items-center">
              {info.getValue() ? (
                <span className="font-mono" data-token-code>
                  {info.getValue()}
                </span>
              ) : (
                <span className="font-normal text-ink-muted">no token</span>
              )}
              <span className="sr-only"> — open the token&apos;s history</span>
            </Link>
          ),
        }),
        column.accessor("createdAt", {
          id: "createdAt",
          header: "Created",
          sortDescFirst: true,
          // The date and the time may sit on two lines (never split further): the table fits a desk monitor.
          cell: (info) => (
            <span className="tabular-nums">
              <span className="whitespace-nowrap">{formatDate(info.getValue())},</span> <span className="whitespace-nowrap">{formatTime(info.getValue())}</span>
            </span>
          ),
        }),
        column.accessor("maskedIdNumber", {
          id: "idType",
          header: "Customer ID",
          cell: (info) => (
            <span className="flex flex-col leading-tight">
              {/* A masked number stays whole; the words that replace an erased one wrap. */}
              <span className={info.row.original.isIdentityErased ? "min-w-40 text-sm" : "font-mono whitespace-nowrap"}>{info.getValue()}</span>
              <span className="text-xs text-ink-muted">
                {info.row.original.idTypeLabel} · {reviewKindLabels[info.row.original.kind]}
              </span>
            </span>
          ),
        }),
        column.accessor("reference", {
          id: "reference",
          header: "Reference",
          cell: (info) => <span className="block max-w-32 truncate" title={info.getValue()}>{info.getValue()}</span>,
        }),
        // The reason sits under the state it explains: one column less to scroll to.
        column.accessor("state", {
          id: "state",
          header: "State",
          cell: (info) => {
            const reason = info.row.original.failureReason;
            return (
              <span className="flex flex-col items-start gap-1">
                <ReviewStateBadge state={info.getValue()} />
                {reason ? (
                  <span className="line-clamp-2 max-w-56 text-sm text-ink-muted" title={reason} data-testid="failure-reason">
                    {reason}
                  </span>
                ) : null}
              </span>
            );
          },
        }),
        column.accessor("tellerName", {
          id: "teller",
          header: showBranch ? "Teller · branch" : "Teller",
          cell: (info) => (
            <span className="flex min-w-28 flex-col leading-tight">
              <span>{info.getValue()}</span>
              {showBranch ? <span className="text-xs text-ink-muted">{info.row.original.branchName}</span> : null}
            </span>
          ),
        }),
        column.accessor("secondsToResult", {
          id: "duration",
          header: "Time to result",
          sortDescFirst: false,
          cell: (info) => <span className="whitespace-nowrap tabular-nums">{formatDuration(info.getValue())}</span>,
        }),
      ]),
    [detailBase, showBranch],
  );

  const sorting: SortingState = [{ id: query.sort, desc: query.dir === "desc" }];
  const go = (next: Partial<ReviewListQuery>) => {
    const params = toSearchParams({ ...query, ...next });
    startNavigation(() => router.push(`${pathname}${params.size ? `?${params}` : ""}`, { scroll: false }));
  };

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    rowCount: total,
    state: { sorting, pagination: { pageIndex: query.page - 1, pageSize: query.size } },
    onSortingChange: (updater: Updater<SortingState>) => {
      const [next] = typeof updater === "function" ? updater(sorting) : updater;
      if (next && sortableIds.has(next.id)) go({ sort: next.id as ReviewSortKey, dir: next.desc ? "desc" : "asc", page: 1 });
    },
    onPaginationChange: () => undefined,
  });

  const pageHref = (page: number) => {
    const params = toSearchParams({ ...query, page });
    return `${pathname}${params.size ? `?${params}` : ""}`;
  };
  const firstRow = (query.page - 1) * query.size + 1;
  const lastRow = firstRow + rows.length - 1;

  return (
    <div className="flex flex-col gap-3" aria-busy={isNavigating || undefined}>
      <TableFrame className={cn("transition-opacity", isNavigating && "opacity-60")}>
        <Table className="text-[0.9rem]">
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => {
                  const canSort = header.column.getCanSort() && sortableIds.has(header.column.id);
                  const sorted = header.column.getIsSorted();
                  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
                  return (
                    <TableHeaderCell
                      key={header.id}
                      // Headers may wrap ("Time to / result"), so the table fits a desk monitor.
                      className="px-3 align-bottom whitespace-normal"
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : canSort ? "none" : undefined}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className={cn("inline-flex items-center gap-1 rounded-control hover:text-ink", sorted && "text-ink")}
                        >
                          <table.FlexRender header={header} />
                          <Icon aria-hidden className={cn("size-4 shrink-0", !sorted && "opacity-50")} />
                          <span className="sr-only">{sorted ? `, sorted ${sorted === "asc" ? "ascending" : "descending"}` : ", sort"}</span>
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </TableHeaderCell>
                  );
                })}
              </TableRow>
            ))}
          </TableHead>
          <TableBody>
            {table.getRowModel().rows.map((row) => (
              <TableRow
                key={row.id}
                className="hover:bg-surface-muted"
                data-testid="review-row"
                data-token-id={row.original.id}
                data-token={row.original.token ?? ""}
                data-state={row.original.state}
                data-kind={row.original.kind}
                data-id-type={row.original.idType}
                data-branch-id={row.original.branchId}
                data-teller-id={row.original.tellerId}
                data-created-at={row.original.createdAt}
              >
                {row.getAllCells().map((cell) => (
                  <TableCell key={cell.id} className="px-3 py-2">
                    <table.FlexRender cell={cell} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>

      <nav aria-label="Pages of the token list" className="flex flex-wrap items-center justify-between gap-3 text-ink-muted">
        <p aria-live="polite" data-testid="review-count">
          {rows.length === 0
            ? "No tokens on this page."
            : `Tokens ${formatCount(firstRow)}–${formatCount(lastRow)} of ${isCountCapped ? "more than " : ""}${formatCount(total)}`}
        </p>
        <div className="flex items-center gap-2">
          <PageLink href={pageHref(query.page - 1)} isDisabled={query.page <= 1} label="Previous page">
            <ChevronLeft aria-hidden className="size-4" /> Previous
          </PageLink>
          <span className="px-2 tabular-nums">
            Page {formatCount(query.page)} of {isCountCapped ? "many" : formatCount(pageCount)}
          </span>
          <PageLink href={pageHref(query.page + 1)} isDisabled={!isCountCapped && query.page >= pageCount} label="Next page">
            Next <ChevronRight aria-hidden className="size-4" />
          </PageLink>
        </div>
      </nav>
    </div>
  );
}

/** A page link styled as the small secondary button (44 px tall on a touch screen, as every small button). */
function PageLink({ href, isDisabled, label, children }: { href: string; isDisabled: boolean; label: string; children: React.ReactNode }) {
  return (
    <Button asChild variant="secondary" size="sm" className={cn(isDisabled && "pointer-events-none opacity-50")}>
      {isDisabled ? (
        <span aria-disabled="true" aria-label={label}>
          {children}
        </span>
      ) : (
        <Link href={href} aria-label={label} scroll={false}>
          {children}
        </Link>
      )}
    </Button>
  );
}
