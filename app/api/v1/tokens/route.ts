import { listTokensRoute, postTokenRoute } from "@/lib/api/route";
import { apiDependencies } from "../dependencies";

// Customer data: always from the database, never cached.
export const dynamic = "force-dynamic";

/** POST: issue a token (Idempotency-Key required). GET: find this integration's tokens. See lib/api/route.ts. */
export const POST = postTokenRoute(apiDependencies);
export const GET = listTokensRoute(apiDependencies);
