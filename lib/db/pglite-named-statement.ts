import { parse, protocol, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

/**
 * What PostgreSQL gets from a statement prepared under a name (ADR 0032), for PGlite, which
 * drizzle cannot give it: PGlite's own `query()` parses and plans the text anew on every call, in
 * six calls into the WASM module (parse, describe, bind, describe, execute, sync), and on the
 * embedded database every one of them is CPU on the event loop. This client runs the one read
 * it is made for as a named prepared statement: parsed and planned once per database, then each
 * run is bind, describe, execute and sync in one call. It takes the same locks as `query()` (it
 * waits for a transaction in progress) and answers in the same shape, parsed by PGlite's own
 * parser, so drizzle maps its rows exactly as before (ADR 0036).
 *
 * For reads only: it never writes the database's files to disk after a run, as `query()` does
 * after a write.
 */
export type PgliteQueryClient = Pick<PGlite, "query">;

export function pgliteNamedStatementClient(pg: PGlite, name: string): PgliteQueryClient {
  let preparedText: string | undefined;
  let parameterTypes: number[] = [];

  async function prepare(text: string): Promise<void> {
    if (preparedText === text) return;
    if (preparedText !== undefined) throw new Error(`the named statement ${name} was given another text`);
    // Closing a name nothing holds is no error; a name left from an earlier client is replaced.
    const { messages } = await pg.execProtocol(
      join(protocol.serialize.close({ type: "S", name }), protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()),
      { syncToFs: false },
    );
    const description = messages.find((message): message is InstanceType<typeof protocol.messages.ParameterDescriptionMessage> => message.name === "parameterDescription");
    parameterTypes = description?.dataTypeIDs ?? [];
    preparedText = text;
  }

  return {
    query: <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> =>
      pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          await prepare(text);
          const values = params.map((value, index) => {
            if (value === null || value === undefined) return null;
            const type = parameterTypes[index]!;
            const serializer = options?.serializers?.[type] ?? pg.serializers[type];
            return serializer ? serializer(value) : String(value);
          });
          const { messages } = await pg.execProtocol(
            join(protocol.serialize.bind({ statement: name, values }), protocol.serialize.describe({ type: "P" }), protocol.serialize.execute({}), protocol.serialize.sync()),
            { syncToFs: false },
          );
          return parse.parseResults(messages, pg.parsers, options)[0] as Results<T>;
        }),
      ),
  };
}

function join(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
