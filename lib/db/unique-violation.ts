/**
 * Whether a write failed on a unique constraint (SQLSTATE 23505). Both drivers put the code on
 * the error itself or, through drizzle, on its `cause`; the whole chain is read.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
