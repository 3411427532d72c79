/**
 * Imported first by every entry script: on an older Node.js, stop before anything else loads
 * (lib/runtime.ts says why). A side-effect import so that it runs before the other imports.
 */
import { unsupportedNodeMessage } from "../../lib/runtime";

const message = unsupportedNodeMessage(process.versions.node);
if (message) {
  console.error(message);
  process.exit(1);
}
