import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tokenRequests } from "@/lib/db/schema";
import { unshownTokenColumns } from "@/lib/db/shown-version";

describe("the columns of a token row no viewer sees", () => {
  it("are each a column of the table (a misspelt one would leave a moving column in the shown version)", () => {
    const columns = new Set(Object.values(getTableColumns(tokenRequests)).map((column) => column.name));
    expect([...unshownTokenColumns].filter((name) => !columns.has(name))).toEqual([]);
  });

  it("leave out nothing a viewer sees: the state, the result, the times shown and the masked copies", () => {
    for (const shown of ["outcome", "token", "issued_at", "live_state", "result_status", "transaction_number", "result_error", "finished_at", "last_fault_code", "fault_since", "used_seen_at", "reference_masked"]) {
      expect(unshownTokenColumns.has(shown), shown).toBe(false);
    }
  });
});
