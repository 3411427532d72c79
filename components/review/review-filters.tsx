"use client";

import { ChevronRight, Filter, X } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useTransition, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import {
  describeDayFilter,
  parseListQuery,
  reviewIdTypeLabels,
  reviewIdTypes,
  reviewKindLabels,
  reviewKinds,
  reviewStateLabels,
  reviewStates,
  toSearchParams,
  type ReviewListQuery,
} from "@/lib/review/filters";
import { DayField } from "./day-field";

export type FilterOption = { id: string; label: string; group?: string };

type ReviewFiltersProps = {
  query: ReviewListQuery;
  /** Head office only: the branches to pick from. Absent for a branch supervisor. */
  branches?: FilterOption[];
  tellers: FilterOption[];
  /** The bank's purposes (retired ones too: old tokens carry them). */
  purposes: string[];
};

/**
 * The list's filters. A plain GET form — it works without JavaScript and its fields are the URL's
 * — enhanced to leave empty fields out of the URL and to keep the sort order. The ID number is
 * deliberately not here: it is searched separately, by POST (IdNumberSearch).
 */
export function ReviewFilters({ query, branches, tellers, purposes }: ReviewFiltersProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [isPending, startTransition] = useTransition();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const entered = new URLSearchParams();
    for (const [key, value] of form.entries()) if (typeof value === "string" && value.trim() !== "") entered.append(key, value.trim());
    const { query: filters, ignored } = parseListQuery(entered);
    // A new filter starts at page 1, in the order the supervisor chose.
    const params = toSearchParams({ ...filters, sort: query.sort, dir: query.dir, size: query.size, page: 1 });
    // What could not be read (a half-typed day) goes along as typed, so the page says it was ignored
    // instead of the filter vanishing without a word.
    for (const key of ignored) if (key !== "state" && entered.has(key)) params.set(key, entered.get(key)!);
    startTransition(() => router.push(`${pathname}${params.size ? `?${params}` : ""}`));
  };

  const selectedStates = new Set(query.state ?? []);
  const active = describeActive(query, tellers, branches);
  return (
    <details className="group rounded-card border border-line bg-surface">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-2.5 font-semibold [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden className="size-5 shrink-0 transition-transform group-open:rotate-90" />
        <Filter aria-hidden className="size-5 shrink-0" />
        Filters
        {active.length > 0 ? (
          <span className="flex flex-wrap gap-1.5 font-normal" data-testid="active-filters">
            {active.map((text) => (
              <span key={text} className="rounded-full border border-brand-700 bg-brand-50 px-2.5 py-0.5 text-sm text-brand-800">
                {text}
              </span>
            ))}
          </span>
        ) : (
          <span className="font-normal text-ink-muted">· state, dates, kind, ID type, branch, teller, reference, token</span>
        )}
      </summary>
    <form method="get" action={pathname} onSubmit={submit} aria-label="Filter the token list" className="border-t border-line px-4 py-3">
      <div className="grid grid-cols-2 gap-x-3 gap-y-2 lg:grid-cols-4">
        <fieldset className="col-span-2 lg:col-span-4">
          <legend className="mb-1 text-sm font-semibold">State</legend>
          <div className="flex flex-wrap gap-1.5">
            {reviewStates.map((state) => (
              <label
                key={state}
                className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-line-strong px-2.5 py-0.5 text-sm pointer-coarse:min-h-11 pointer-coarse:px-3.5 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:checked]:font-semibold has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-info-600"
              >
                <input type="checkbox" name="state" value={state} defaultChecked={selectedStates.has(state)} className="size-4 accent-brand-700" />
                {reviewStateLabels[state]}
              </label>
            ))}
          </div>
        </fieldset>

        <FilterField id="filter-from" label="From">
          <DayField id="filter-from" className="h-9 text-[0.95rem]" name="from" defaultValue={query.from} />
        </FilterField>
        <FilterField id="filter-to" label="To">
          <DayField id="filter-to" className="h-9 text-[0.95rem]" name="to" defaultValue={query.to} />
        </FilterField>
        <FilterField id="filter-kind" label="Kind">
          <Select id="filter-kind" className="h-9 text-[0.95rem]" name="kind" defaultValue={query.kind ?? ""}>
            <option value="">Any kind</option>
            {reviewKinds.map((kind) => (
              <option key={kind} value={kind}>
                {reviewKindLabels[kind]}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="filter-id-type" label="ID type">
          <Select id="filter-id-type" className="h-9 text-[0.95rem]" name="idType" defaultValue={query.idType ?? ""}>
            <option value="">Any ID type</option>
            {reviewIdTypes.map((idType) => (
              <option key={idType} value={idType}>
                {reviewIdTypeLabels[idType]}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="filter-purpose" label="Purpose">
          <Select id="filter-purpose" className="h-9 text-[0.95rem]" name="purpose" defaultValue={query.purpose ?? ""}>
            <option value="">Any purpose</option>
            {/* A purpose from an older link that is no longer in the list still shows as chosen. */}
            {[...purposes, ...(query.purpose && !purposes.includes(query.purpose) ? [query.purpose] : [])].map((purpose) => (
              <option key={purpose} value={purpose}>
                {purpose}
              </option>
            ))}
          </Select>
        </FilterField>

        {branches ? (
          <FilterField id="filter-branch" label="Branch">
            <Select id="filter-branch" className="h-9 text-[0.95rem]" name="branch" defaultValue={query.branch ?? ""}>
              <option value="">All branches</option>
              {branches.map((branch) => (
                <option key={branch.id} value={branch.id}>
                  {branch.label}
                </option>
              ))}
            </Select>
          </FilterField>
        ) : null}
        <FilterField id="filter-teller" label="Teller">
          <Select id="filter-teller" className="h-9 text-[0.95rem]" name="teller" defaultValue={query.teller ?? ""}>
            <option value="">Any teller</option>
            {tellers.map((teller) => (
              <option key={teller.id} value={teller.id}>
                {teller.group ? `${teller.label} (${teller.group})` : teller.label}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="filter-reference" label="Reference (exact)">
          <Input id="filter-reference" className="h-9 text-[0.95rem]" name="reference" defaultValue={query.reference ?? ""} autoComplete="off" />
        </FilterField>
        <FilterField id="filter-token" label="Token">
          <Input id="filter-token" name="token" defaultValue={query.token ?? ""} autoComplete="off" className="h-9 font-mono text-[0.95rem] uppercase" />
        </FilterField>
      </div>
      {/* The sort order survives a GET submit without JavaScript too. */}
      {query.sort !== "createdAt" ? <input type="hidden" name="sort" value={query.sort} /> : null}
      {query.dir !== "desc" ? <input type="hidden" name="dir" value={query.dir} /> : null}
      <div className="mt-3 flex items-center gap-3">
        <Button type="submit" size="sm" isBusy={isPending} disabled={isPending}>
          {isPending ? null : <Filter aria-hidden className="size-5" />}
          Apply filters
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link href={pathname}>
            <X aria-hidden className="size-5" />
            Clear filters
          </Link>
        </Button>
      </div>
    </form>
    </details>
  );
}

/** The active filters in words, for the closed panel's summary line. */
function describeActive(query: ReviewListQuery, tellers: FilterOption[], branches?: FilterOption[]): string[] {
  const words: string[] = [];
  if (query.state?.length) words.push(query.state.map((state) => reviewStateLabels[state]).join(" or "));
  const days = describeDayFilter(query.from, query.to);
  if (days) words.push(days);
  if (query.kind) words.push(reviewKindLabels[query.kind]);
  if (query.idType) words.push(reviewIdTypeLabels[query.idType]);
  if (query.purpose) words.push(`Purpose: ${query.purpose}`);
  if (query.branch) words.push(branches?.find((branch) => branch.id === query.branch)?.label ?? "One branch");
  if (query.teller) words.push(`Teller: ${tellers.find((teller) => teller.id === query.teller)?.label ?? "one teller"}`);
  if (query.reference) words.push(`Reference ${query.reference}…`);
  if (query.token) words.push(`Token ${query.token.toUpperCase()}`);
  return words;
}

function FilterField({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}
