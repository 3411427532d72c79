import { listPurposesRoute } from "@/lib/api/route";
import { apiDependencies } from "../dependencies";

export const dynamic = "force-dynamic";

/** GET: the purposes and the consent wording in force. See lib/api/route.ts. */
export const GET = listPurposesRoute(apiDependencies);
