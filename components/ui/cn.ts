import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. Nothing is merged: a primitive's defaults that a page may change live in
 * `@layer components` (app/globals.css), so the page's utility wins by the cascade (ADR 0035).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
