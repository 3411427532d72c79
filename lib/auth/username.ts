import { z } from "zod";

/**
 * Staff usernames: the staff ID style the bank uses (`teller.accra`, `k.mensah`). Stored
 * lower-cased; typed in any case. The same rule as better-auth's username plugin is configured with.
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;
export const USERNAME_PATTERN = /^[a-z0-9_.]+$/;

export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

export const usernameSchema = z
  .string()
  .transform(normalizeUsername)
  .pipe(
    z
      .string()
      .min(USERNAME_MIN, `At least ${USERNAME_MIN} characters.`)
      .max(USERNAME_MAX, `At most ${USERNAME_MAX} characters.`)
      .regex(USERNAME_PATTERN, "Use only letters, digits, dots and underscores (e.g. teller.accra)."),
  );

/** better-auth insists on an e-mail per user; staff have none in Veridesk, so a reserved-TLD one. */
export function placeholderEmailFor(username: string): string {
  return `${username}@staff.invalid`;
}
