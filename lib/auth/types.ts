import type { Permission } from "./permissions";
import type { StaffRole } from "./roles";

/** The signed-in staff member as pages, routes and actions see it (a DTO: no secrets, no rows). */
export type Staff = {
  userId: string;
  username: string;
  name: string;
  role: StaffRole;
  branch: { id: string; code: string; name: string };
  permissions: readonly Permission[];
  session: {
    id: string;
    /** When the session ends if nothing more happens (idle timeout). */
    idleExpiresAt: Date;
    /** When it ends whatever happens (SESSION_MAX_HOURS after sign-in). */
    absoluteExpiresAt: Date;
  };
};
