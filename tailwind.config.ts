import type { Config } from "tailwindcss";

/**
 * Veridesk's design tokens. Colours carry meaning (state, action) and are always paired with an
 * icon and a word in the UI, never used alone. Their values, light and dark, are CSS variables in
 * app/globals.css: the page follows the system's dark setting without a `dark:` class anywhere.
 */
function shades(name: string, steps: number[]): Record<number, string> {
  return Object.fromEntries(steps.map((step) => [step, `var(--color-${name}-${step})`]));
}

export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: shades("brand", [50, 100, 600, 700, 800, 900]),
        surface: { DEFAULT: "var(--color-surface)", muted: "var(--color-surface-muted)", sunken: "var(--color-surface-sunken)" },
        ink: { DEFAULT: "var(--color-ink)", muted: "var(--color-ink-muted)", subtle: "var(--color-ink-subtle)", inverse: "var(--color-ink-inverse)" },
        line: { DEFAULT: "var(--color-line)", strong: "var(--color-line-strong)" },
        success: shades("success", [50, 600, 700]),
        danger: shades("danger", [50, 600, 700]),
        warning: shades("warning", [50, 600, 700]),
        info: shades("info", [50, 600, 700]),
      },
      borderRadius: { control: "0.5rem", card: "0.75rem" },
      fontSize: { token: ["clamp(1.75rem, 8.5vw, 3.5rem)", { lineHeight: "1", letterSpacing: "0.12em" }] },
      spacing: { gutter: "1.5rem" },
    },
  },
} satisfies Config;
