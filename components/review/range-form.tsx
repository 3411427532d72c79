import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import type { ReviewOption } from "@/lib/review/options";
import { DayField } from "./day-field";

/** A plain GET form: the chosen range and grouping are the page's URL, so a view can be shared. */
export function FiguresRangeForm({
  from,
  to,
  groupBy,
  sort,
  branch,
  branches,
}: {
  from: string;
  to: string;
  groupBy: string;
  sort: string;
  branch?: string;
  branches?: ReviewOption[];
}) {
  return (
    <form method="get" aria-label="Choose the figures" className="no-print mb-6 flex flex-wrap items-end gap-4 rounded-card border border-line bg-surface p-4">
      <label className="flex flex-col gap-1 text-sm font-semibold">
        From
        <DayField name="from" defaultValue={from} className="w-44" />
      </label>
      <label className="flex flex-col gap-1 text-sm font-semibold">
        To
        <DayField name="to" defaultValue={to} className="w-44" />
      </label>
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Per
        <Select name="groupBy" defaultValue={groupBy} className="w-40">
          <option value="branch">Branch</option>
          <option value="teller">Teller</option>
          <option value="day">Day</option>
        </Select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Order
        <Select name="sort" defaultValue={sort} className="w-48">
          <option value="name">By name or day</option>
          <option value="successRate">Success rate, highest first</option>
        </Select>
      </label>
      {branches ? (
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Branch
          <Select name="branch" defaultValue={branch ?? ""} className="w-64">
            <option value="">All branches</option>
            {branches.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </Select>
        </label>
      ) : null}
      <Button type="submit">Show figures</Button>
    </form>
  );
}
