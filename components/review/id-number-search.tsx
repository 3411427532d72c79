"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Search, X } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { reviewIdTypeLabels, reviewIdTypes } from "@/lib/review/filters";
import { formatDateTime } from "@/lib/bank-time";
import { idNumberSearchSchema } from "@/lib/review/id-search-schema";
import type { ReviewTokenRow } from "@/lib/review/dto";
import { ReviewStateBadge } from "./review-state-badge";

type SearchValues = z.input<typeof idNumberSearchSchema>;
type SearchOutput = z.output<typeof idNumberSearchSchema>;

type IdNumberSearchProps = {
  /** The server action: POSTs the number, answers the matching tokens (masked). */
  search: (input: SearchOutput) => Promise<ActionResult<{ rows: ReviewTokenRow[]; isTruncated: boolean }>>;
  detailBase: string;
};

/**
 * Exact search by ID number. The number goes to the server in the body of a server action (a
 * POST), is turned into its blind index there, and the answer is kept in this component's state:
 * it never reaches the URL, the browser history or a shared link. Leaving the page forgets it.
 */
export function IdNumberSearch({ search, detailBase }: IdNumberSearchProps) {
  const [answer, setAnswer] = useState<{ rows: ReviewTokenRow[]; isTruncated: boolean } | null>(null);
  const [formError, setFormError] = useState<FormFailure | null>(null);
  const form = useForm<SearchValues, unknown, SearchOutput>({
    resolver: zodResolver(idNumberSearchSchema),
    defaultValues: { idType: "GHANA_CARD", idNumber: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await search(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, form, ["idType", "idNumber"], "The search did not run."));
      setAnswer(null);
      return;
    }
    setAnswer(result.data);
  });

  const clear = () => {
    setAnswer(null);
    setFormError(null);
    form.reset({ idType: form.getValues("idType"), idNumber: "" });
  };

  return (
    <section aria-labelledby="id-search-heading" className="rounded-card border border-line bg-surface px-4 py-3">
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <div className="w-52 pt-0.5">
          <h2 id="id-search-heading" className="leading-tight font-semibold">
            Find a customer by ID number
          </h2>
          <p className="text-sm leading-tight text-ink-muted">Exact number; never kept in the address bar.</p>
        </div>
        <fieldset disabled={isSubmitting} className="contents">
          <div className="flex flex-col gap-1">
            <label htmlFor="id-search-type" className="sr-only">
              ID type
            </label>
            <Select id="id-search-type" className="h-9 w-40 text-[0.95rem]" {...form.register("idType")}>
              {reviewIdTypes.map((idType) => (
                <option key={idType} value={idType}>
                  {reviewIdTypeLabels[idType]}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex min-w-56 flex-1 flex-col gap-0.5">
            <label htmlFor="id-search-number" className="sr-only">
              ID number
            </label>
            <Input
              id="id-search-number"
              autoComplete="off"
              spellCheck={false}
              className="h-9 font-mono"
              placeholder="ID number, e.g. GHA-123456789-0"
              aria-invalid={errors.idNumber ? true : undefined}
              aria-describedby="id-search-number-error"
              {...form.register("idNumber")}
            />
            <p id="id-search-number-error" aria-live="polite" className="text-sm font-medium text-danger-700 empty:hidden">
              {errors.idNumber?.message}
            </p>
          </div>
          <div className="flex gap-2">
            <Button type="submit" variant="secondary" size="sm" isBusy={isSubmitting}>
              {isSubmitting ? null : <Search aria-hidden className="size-5" />}
              Search
            </Button>
            {answer ? (
              <Button type="button" variant="ghost" size="sm" onClick={clear}>
                <X aria-hidden className="size-5" />
                Clear search
              </Button>
            ) : null}
          </div>
        </fieldset>
      </form>
      {formError ? (
        <Alert tone="danger" title={formError.message} className="mt-3" {...formFailureAlertProps(formError)} />
      ) : null}
      <div aria-live="polite">
        {answer ? (
          answer.rows.length === 0 ? (
            <p className="mt-3 rounded-control bg-surface-muted p-3" data-testid="id-search-empty">
              No token in your branches for this number. Check the ID type and the number with the customer, or search by reference in the filters below.
            </p>
          ) : (
            <TableFrame className="mt-3">
              <Table>
                <TableCaption data-testid="id-search-summary">
                  {answer.rows.length} token{answer.rows.length === 1 ? "" : "s"} for this customer{answer.isTruncated ? " (newest shown)" : ""}
                </TableCaption>
                <TableHead>
                  <TableRow>
                    <TableHeaderCell>Token</TableHeaderCell>
                    <TableHeaderCell>Created</TableHeaderCell>
                    <TableHeaderCell>Customer ID</TableHeaderCell>
                    <TableHeaderCell>State</TableHeaderCell>
                    <TableHeaderCell>Branch</TableHeaderCell>
                    <TableHeaderCell>Teller</TableHeaderCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {answer.rows.map((row) => (
                    <TableRow key={row.id} data-testid="id-search-row">
                      <TableCell className="whitespace-nowrap">
                        <Link href={`${detailBase}/${row.id}`} prefetch={false} className="font-semibold text-brand-700 hover:underline">
                          {row.token ? (
                            <span className="font-mono" data-token-code>
                              {row.token}
                            </span>
                          ) : (
                            "no token"
                          )}
                        </Link>
                      </TableCell>
                      <TableCell>{formatDateTime(row.createdAt)}</TableCell>
                      <TableCell className="font-mono">{row.maskedIdNumber}</TableCell>
                      <TableCell>
                        <ReviewStateBadge state={row.state} />
                      </TableCell>
                      <TableCell>{row.branchName}</TableCell>
                      <TableCell>{row.tellerName}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableFrame>
          )
        ) : null}
      </div>
    </section>
  );
}
