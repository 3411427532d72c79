import { describe, expect, it } from "vitest";
import { boundActionRepliesOf, isDecodableReply, replyPartsOf } from "./server-action-reply";

const text = (body: string) => isDecodableReply(replyPartsOf(body));
/** Fields in body order (an object would put the numbered ones first). */
const multipart = (...fields: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return isDecodableReply(replyPartsOf(form));
};

describe("isDecodableReply", () => {
  it("reads what React's client sends for plain arguments", () => {
    expect(text('[{"username":"teller.accra","sendSms":true,"count":3,"none":null}]')).toBe(true);
    // A typed `$` is escaped; undefined, the special numbers, a date and a big integer stand for themselves.
    expect(text('["$$Q1","$$","$${7*7}","$$(id)"]')).toBe(true);
    expect(text('["$undefined","$NaN","$Infinity","$-Infinity","$-0","$D2026-12-03T06:00:00.000Z","$n12345678901234567890"]')).toBe(true);
    expect(text("[]")).toBe(true);
  });

  it("refuses a reference to a part a text body cannot have: every unescaped `$` the reviewer sent", () => {
    for (const value of ["$(id)", "${7*7}", "$Q1", "$W1", "$@1", "$@", "$@1:x", "$i1", "$1", "$", "$K", "$h1", "$F1", "$B1", "$T", "$R1", "$X1", "$A1", "$o1", "$Z", "$Sabc", "$H", "$u", "$Infinityx", "$ffffffffffffffffffff"]) {
      expect(text(JSON.stringify([value])), value).toBe(false);
      expect(text(JSON.stringify([{ deep: { deeper: [value] } }])), `${value} nested`).toBe(false);
      expect(text(JSON.stringify(value)), `${value} as the root`).toBe(false);
    }
  });

  it("refuses a big integer React cannot make (not digits, or over 300 of them)", () => {
    expect(text('["$nabc"]')).toBe(false);
    expect(text(`["$n${"9".repeat(301)}"]`)).toBe(false);
    expect(text(`["$n${"9".repeat(300)}"]`)).toBe(true);
  });

  it("follows a path into the body's own objects, as React does for an object sent twice, and refuses a path that goes nowhere", () => {
    expect(text('[{"a":{"b":1}},"$0:0:a"]')).toBe(true);
    expect(text('[{"a":1},"$0:0:b:c"]')).toBe(false);
    expect(text('[{"a":1},"$0:5"]')).toBe(false);
    expect(text('["$0"]')).toBe(true);
    // Through a string (a value React would decode into something else), or `__proto__`, which React's reviver drops.
    expect(text('[{"a":"$$x"},"$0:0:a:length"]')).toBe(false);
    expect(text('[{"__proto__":{"a":1}},"$0:0:__proto__"]')).toBe(false);
    expect(text('[{"then":"$0:__proto__:then"}]')).toBe(false);
    expect(text('[{"constructor":"$0:constructor"}]')).toBe(false);
  });

  it("refuses a body that is not JSON, or is empty", () => {
    for (const body of ["[zxc]", "[", "", "undefined"]) expect(text(body), body).toBe(false);
  });

  it("reads a multipart reply's parts by number and its FormData arguments, and refuses one without a root or with a missing part", () => {
    expect(multipart(["0", '["$undefined","$K1"]'], ["_1_code", "$Q1"], ["_1_name", "${7*7}"])).toBe(true);
    expect(multipart(["1", '{"a":1}'], ["0", '["$1:a"]'])).toBe(true);
    expect(multipart(["0", '["$1"]'])).toBe(false);
    expect(multipart(["2", "[1]"], ["1", '["$3"]'], ["0", '["$1","$2"]'])).toBe(false);
    expect(multipart(["1_x", "$Q1"])).toBe(false);
    expect(multipart(["1", "not json"], ["0", '["$1"]'])).toBe(false);
  });

  it("refuses a part that points to one after it in the body, which React reads before it has arrived", () => {
    expect(multipart(["0", '["$1"]'], ["1", '{"a":1}'])).toBe(false);
    expect(multipart(["1", '["$0"]'], ["0", '["$1"]'])).toBe(false);
  });

  it("refuses a part two fields claim, as React reads names (`+name`): it would resolve the part twice and throw", () => {
    expect(multipart(["0", "[]"], ["0", "[]"])).toBe(false);
    for (const twin of ["00", " 0", "0x0", "-0", "", "0e0"]) expect(multipart(["0", "[]"], [twin, "[]"]), JSON.stringify(twin)).toBe(false);
    expect(multipart(["1", "[]"], ["01", "[]"], ["0", '["$1"]'])).toBe(false);
    // A repeated field no reference reads is never resolved.
    expect(multipart(["5", "[]"], ["05", "[]"], ["0", "[]"])).toBe(true);
  });

  it("refuses the Maps, Sets and iterables React will not read twice or from another shape", () => {
    expect(multipart(["1", '[["a","b"]]'], ["0", '["$Q1","$Q1"]'])).toBe(false);
    expect(multipart(["1", '{"not":"an array"}'], ["0", '["$W1"]'])).toBe(false);
  });

  it("walks a deeply nested body without overflowing the stack", () => {
    const depth = 200_000;
    expect(text(`${"[".repeat(depth)}"$Q1"${"]".repeat(depth)}`)).toBe(false);
  });
});

describe("boundActionRepliesOf", () => {
  it("gives one reply per bound action of a form post, read from its own prefixed fields", () => {
    const form = new FormData();
    form.append("$ACTION_REF_1", "");
    form.append("$ACTION_1:0", '{"id":"7f3a","bound":"$@1"}');
    form.append("$ACTION_1:1", '["x"]');
    form.append("$ACTION_REF_2", "");
    form.append("$ACTION_2:0", '{"id":"7f3b","bound":"$@1"}');
    form.append("note", "$Q1");
    const replies = boundActionRepliesOf(form);
    // Read once the whole form is in: the bound arguments may come after the root.
    expect(replies.map(isDecodableReply)).toEqual([true, false]);
  });

  it("has none for a post that names its action by id: its fields go to the action as they are", () => {
    const form = new FormData();
    form.append("$ACTION_ID_7f3a", "");
    form.append("note", "$Q1");
    expect(boundActionRepliesOf(form)).toEqual([]);
  });
});
