import { describe, expect, it } from "vitest";
import { getUpstreamClient } from "./default-client";

describe("getUpstreamClient", () => {
  it("builds the client from the settings once and then reuses it", () => {
    const client = getUpstreamClient();

    expect(client.checkTokenState).toEqual(expect.any(Function));
    expect(getUpstreamClient()).toBe(client);
  });
});
