import { schemaFromCheck } from "@/lib/validation/zod-from-rules";
import { checkChangePassword, type ChangePasswordInput } from "@/lib/auth/password-rules";

/** The change-password action's schema: the very check the form runs in the browser. */
export const changePasswordSchema = schemaFromCheck<ChangePasswordInput, ChangePasswordInput>(checkChangePassword);
