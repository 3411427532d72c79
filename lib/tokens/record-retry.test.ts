import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, toAppError } from "@/lib/errors";
import { RecordRetryQueue } from "./record-retry";

const quietLog = { info: () => undefined, error: () => undefined };

describe("the queue of answers the database refused", () => {
  it("runs a write again until it succeeds, then forgets it", async () => {
    const queue = new RecordRetryQueue({ firstDelayMs: 60_000, maxDelayMs: 60_000 }, quietLog);
    let failuresLeft = 1;
    let written = 0;
    const write = async () => {
      if (failuresLeft-- > 0) throw Object.assign(new Error("No space left on device"), { code: "53100" });
      written += 1;
    };
    queue.add({ tokenRequestId: "a", what: "issued", write }, new Error("first"));
    await queue.flush();
    expect(queue.describe()).toMatchObject([{ tokenRequestId: "a", attempts: 2, lastError: "53100: No space left on device" }]);
    await queue.flush();
    expect(queue.size).toBe(0);
    expect(written).toBe(1);
  });

  it("retries by itself on its timer", async () => {
    const queueWithThrowingWrite = new RecordRetryQueue({ firstDelayMs: 10, maxDelayMs: 20 }, quietLog);
    let attempts = 0;
    queueWithThrowingWrite.add({ tokenRequestId: "c", what: "issued", write: async () => { attempts += 1; if (attempts < 3) throw new Error("down"); } }, new Error("down"));
    await expect.poll(() => queueWithThrowingWrite.size, { timeout: 2_000 }).toBe(0);
    expect(attempts).toBe(3);
  });
});

describe("a database that is not answering", () => {
  it("is told apart from our own mistakes by its SQLSTATE class or system code, through causes", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("undefined is not a function"))).toBe(false);
  });

  it("reads as the database's outage, not 'something went wrong'", () => {
    const error = toAppError(Object.assign(new Error("could not write to file"), { code: "53100" }));
    expect(error.code).toBe("DATABASE_UNAVAILABLE");
    expect(error.userMessage).toMatch(/^The bank's database is not answering/);
    expect(toAppError(new Error("bug")).code).toBe("INTERNAL");
  });
});
