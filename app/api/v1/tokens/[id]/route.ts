import { getTokenRoute } from "@/lib/api/route";
import { apiDependencies } from "../../dependencies";

export const dynamic = "force-dynamic";

/** GET: one token's state and result (another branch's or integration's: 404). See lib/api/route.ts. */
export const GET = getTokenRoute(apiDependencies);
