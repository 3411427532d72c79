import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: "info", destination }), lines };
}

describe("the logger's last line of defence", () => {
  it("censors secrets and masks free text by the one masking rule", () => {
    const { logger, lines } = capture();
    logger.info({ password: "hunter2-long", request: { apiKey: "vd_live_secret" }, reference: "0241234567 0201234567", token: { errorText: "card GHA-123456789-0 refused" } }, "a line");
    const line = lines.join("");
    expect(line).not.toContain("hunter2-long");
    expect(line).not.toContain("vd_live_secret");
    const { time: _time, ...fields } = JSON.parse(line) as Record<string, unknown>;
    expect(JSON.stringify(fields)).not.toMatch(/\d{7,}/);
    expect(JSON.parse(line)).toMatchObject({ password: "[redacted]", request: { apiKey: "[redacted]" }, reference: "024 ••••••••••••• 4567", token: { errorText: "card GHA-•••••789-0 refused" } });
  });
});
