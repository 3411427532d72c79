import { NextResponse } from "next/server";
import { staffRoute } from "@/lib/auth/route";
import { sessionTimeLeft } from "@/lib/auth/session-policy";
import type { Staff } from "@/lib/auth/types";

/**
 * The session's remaining time, for the idle warning in the shell.
 *   GET  — how long is left; does NOT count as activity (the warning asks before acting).
 *   POST — "Stay signed in": counts as activity, so the idle time starts again.
 * Times are durations, not clock times: the counter PC's clock may be wrong.
 */
function remaining(staff: Staff) {
  return NextResponse.json(sessionTimeLeft(staff.session), { headers: { "cache-control": "no-store" } });
}

export const GET = staffRoute({ permission: null, countsAsActivity: false }, async ({ staff }) => remaining(staff));

export const POST = staffRoute({ permission: null, countsAsActivity: true }, async ({ staff }) => remaining(staff));
