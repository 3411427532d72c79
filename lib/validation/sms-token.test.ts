import { describe, expect, it } from "vitest";
import { attachSmsTokenSchema, groupSmsToken, hasLookAlikeCharacters, normaliseSmsToken, smsTokenMessages, smsTokenSchema, spellSmsToken } from "./sms-token";

describe("the token typed from the customer's SMS", () => {
  it("is taken as read out: case, spaces and dashes do not matter", () => {
    expect(smsTokenSchema.parse("o2g 51b-1o")).toBe("O2G51B1O");
    expect(normaliseSmsToken("\u200bx7q\u00a03bm sab ")).toBe("X7Q3BMSAB");
  });

  it("refuses what is not letters and digits, and says what a token looks like", () => {
    expect(smsTokenSchema.safeParse("").error?.issues[0]?.message).toBe(smsTokenMessages.required);
    expect(smsTokenSchema.safeParse("O2G5'; DROP").error?.issues[0]?.message).toBe(smsTokenMessages.shape);
    // A full-width zero looks like 0 but is another character.
    expect(smsTokenSchema.safeParse("O2G51B1\uFF10").success).toBe(false);
    expect(attachSmsTokenSchema.safeParse({ tokenRequestId: "not-a-uuid", token: "O2G51B1O" }).success).toBe(false);
  });

  it("knows which tokens mix characters that sound alike (O/0, I/1)", () => {
    expect(hasLookAlikeCharacters("O2G51B1O")).toBe(true);
    expect(hasLookAlikeCharacters("x7q3bmsab")).toBe(false);
    expect(hasLookAlikeCharacters("ABI")).toBe(true);
    expect(hasLookAlikeCharacters("AB0")).toBe(true);
    expect(smsTokenMessages.lookAlikes).toBe("Tokens can mix the letter O and the digit 0, and I and 1: check those characters with the customer.");
  });

  it("groups the token in threes, telling each O from 0 and I from 1", () => {
    const groups = groupSmsToken("o2g 51b 1o");
    expect(groups.map((group) => group.map((cell) => cell.character).join(""))).toEqual(["O2G", "51B", "1O"]);
    expect(groups[0]![0]).toEqual({ character: "O", kind: "letter", isLookAlike: true });
    expect(groups[1]![1]).toEqual({ character: "1", kind: "digit", isLookAlike: true });
    expect(groups[0]![1]).toEqual({ character: "2", kind: "digit", isLookAlike: false });
    // Whatever else was typed is left out of the picture (the schema refuses it on submit).
    expect(groupSmsToken("AB#C").flat().map((cell) => cell.character)).toEqual(["A", "B", "C"]);
    expect(groupSmsToken("")).toEqual([]);
  });

  it("spells the token for a screen reader, the look-alikes by name", () => {
    expect(spellSmsToken("O0I1")).toBe("letter O, digit zero, letter I, digit one");
  });
});
