/**
 * Whether the body of a server-action post is a reply React's decoder can read. Next hands the
 * body to React's `decodeReply` before any code of ours runs, and the decoder throws when the
 * body is not JSON or when a string starting with `$` points to a part the body does not have
 * (`$Q1`, `${7*7}`, `$(id)`: React reads `$` as "a reference follows"; its client escapes a
 * typed `$` as `$$`). Next 16 answers every such throw with a 500 and logs it as a server error
 * with its stack. The proxy asks this first and answers 400 instead (ADR 0053).
 *
 * The rule is what React's client sends for the arguments Veridesk's pages pass (plain objects,
 * strings, numbers, booleans, null, undefined; a form's FormData), checked the way React's
 * decoder reads them: every `$` string is one that stands for itself, or points to a part that
 * is there. Anything the client sends only for values Veridesk never passes (server functions,
 * files, typed arrays, streams, Maps, Sets, promises, temporary references) is refused. No
 * imports: the proxy runs it.
 */

/**
 * A reply's parts by number (part 0 is the root), as a text body or the fields of a multipart one.
 * `positionOf` is there when React reads the parts as the body streams in (a fetch call's
 * multipart, read with busboy): a part can then only point to itself or to a part before it —
 * React's client writes the root last — or the decoder throws "Invalid forward reference".
 */
export type ReplyParts = { partOf: (id: number) => FormDataEntryValue | null; positionOf?: (id: number) => number };

/** Next's limit on a server action's body (`serverActions.bodySizeLimit`; next.config.js keeps its 1 MB default). */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/** Strings that stand for a value of their own: an escaped `$…`, undefined, the special numbers, a date, a big integer. */
const SELF_CONTAINED = /^\$(?:\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d{1,300}$)/;
/** A FormData argument, whose entries are the body's `_<id>_…` fields: React reads it without ever throwing. */
const FORM_DATA = /^\$K[0-9a-f]+$/;
/**
 * A plain reference to a part's model, with a path into it: what React's client writes for an
 * object passed twice. (Maps, Sets and iterables are references too, which React refuses to read
 * twice or from the wrong shape; Veridesk passes none, so none is accepted.)
 */
const PART_REFERENCE = /^\$([0-9a-f]+)((?::[^:]*)*)$/;
/** A promise: a bound action's arguments in a form post without JavaScript (`"bound":"$@1"`). React waits for its part. */
const PROMISE = /^\$@([0-9a-f]+)$/;

export function isDecodableReply(reply: ReplyParts): boolean {
  const parts = new Map<number, unknown>();
  const toVisit: { value: unknown; part: number }[] = [];
  const open = (id: number): boolean => {
    if (parts.has(id)) return true;
    const raw = reply.partOf(id);
    if (typeof raw !== "string") return false;
    try {
      const model: unknown = JSON.parse(raw);
      parts.set(id, model);
      toVisit.push({ value: model, part: id });
      return true;
    } catch {
      return false;
    }
  };
  const mayPointTo = (from: number, to: number, isPromise: boolean): boolean => {
    if (!open(to)) return false;
    return isPromise || to === from || reply.positionOf === undefined || reply.positionOf(to) < reply.positionOf(from);
  };
  if (!open(0)) return false;
  // A stack rather than recursion: a body of nested arrays a megabyte deep must not overflow it.
  while (toVisit.length > 0) {
    const { value, part } = toVisit.pop()!;
    if (typeof value === "string") {
      if (value.startsWith("$") && !isReadableReference(value, (id, isPromise) => mayPointTo(part, id, isPromise), parts)) return false;
    } else if (Array.isArray(value)) {
      for (const item of value) toVisit.push({ value: item, part });
    } else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) toVisit.push({ value: item, part });
    }
  }
  return true;
}

function isReadableReference(value: string, mayPointTo: (id: number, isPromise: boolean) => boolean, parts: Map<number, unknown>): boolean {
  if (SELF_CONTAINED.test(value) || FORM_DATA.test(value)) return true;
  const promise = PROMISE.exec(value);
  if (promise) return isPartId(promise[1]!) && mayPointTo(Number.parseInt(promise[1]!, 16), true);
  const reference = PART_REFERENCE.exec(value);
  if (!reference || !isPartId(reference[1]!)) return false;
  const id = Number.parseInt(reference[1]!, 16);
  if (!mayPointTo(id, false)) return false;
  // React walks the path through the part's own objects and arrays (never `__proto__`, which its
  // reviver drops); a step that is not there throws "Invalid reference".
  let target = parts.get(id);
  for (const key of (reference[2] ?? "").split(":").slice(1)) {
    if (key === "__proto__" || target === null || typeof target !== "object" || !Object.hasOwn(target, key)) return false;
    target = (target as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * The replies in a form post that is a server action without JavaScript (a `<form action>` before
 * the page hydrated): each bound action (`$ACTION_REF_<n>`) brings a reply of its own in the
 * fields `$ACTION_<n>:<part>`, whose root names the action and its bound arguments. A post naming
 * its action by id alone (`$ACTION_ID_…`) has none: its fields reach the action as they are.
 */
export function boundActionRepliesOf(form: FormData): ReplyParts[] {
  const replies: ReplyParts[] = [];
  for (const name of new Set(form.keys())) {
    if (!name.startsWith("$ACTION_REF_")) continue;
    const prefix = `$ACTION_${name.slice("$ACTION_REF_".length)}:`;
    // Read from the whole form once it is in: no part comes too early.
    replies.push({ partOf: (id) => form.get(`${prefix}${id}`) });
  }
  return replies;
}

/** The parts of a text body (one part, the root) or of a fetch call's multipart one (fields named by part number, read in order). */
export function replyPartsOf(body: string | FormData): ReplyParts {
  if (typeof body === "string") return { partOf: (id) => (id === 0 ? body : null) };
  const names = [...body.keys()];
  // React takes a field for a part by `+name` ("1", "01", " 1", "1e0" alike): a part two fields
  // claim is resolved twice, and the second throws ("enqueueModel is not a function").
  const fieldsPerPart = new Map<number, number>();
  for (const name of names) {
    const id = +name;
    if (Number.isInteger(id)) fieldsPerPart.set(id, (fieldsPerPart.get(id) ?? 0) + 1);
  }
  return {
    partOf: (id) => (fieldsPerPart.get(id) === 1 ? body.get(String(id)) : null),
    positionOf: (id) => names.indexOf(String(id)),
  };
}

function isPartId(hex: string): boolean {
  return Number.isSafeInteger(Number.parseInt(hex, 16));
}
