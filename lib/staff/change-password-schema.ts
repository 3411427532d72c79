import { schemaFromCheck } from "@/lib/validation/schema-from-check";
import { checkChangePassword, type ChangePasswordInput } from "./password-rules";

/** The change-password action's schema: the very check the form runs in the browser. */
export const changePasswordSchema = schemaFromCheck<ChangePasswordInput, ChangePasswordInput>(checkChangePassword);
