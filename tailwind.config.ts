import type { Config } from "tailwindcss";

/**
 * Veridesk's design tokens. Colours carry meaning (state, action) and are always paired with an
 * icon and a word in the UI, never used alone.
 */
export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { 50: "#eef6f5", 100: "#d5ebe8", 600: "#0f6e66", 700: "#0b5a53", 800: "#08463f", 900: "#06322d" },
        surface: { DEFAULT: "#ffffff", muted: "#f5f7f7", sunken: "#eceff0" },
        ink: { DEFAULT: "#17202a", muted: "#4a5561", subtle: "#6b7682" },
        line: { DEFAULT: "#d4dadf", strong: "#aeb8c1" },
        success: { 50: "#ecf8ef", 600: "#1d7a3a", 700: "#166230" },
        danger: { 50: "#fdeeee", 600: "#b42323", 700: "#911c1c" },
        warning: { 50: "#fff6e5", 600: "#a15c00", 700: "#7f4800" },
        info: { 50: "#eaf2fd", 600: "#1f5fbf", 700: "#184c99" },
      },
      borderRadius: { control: "0.5rem", card: "0.75rem" },
      fontSize: { token: ["clamp(1.75rem, 8.5vw, 3.5rem)", { lineHeight: "1", letterSpacing: "0.12em" }] },
      spacing: { gutter: "1.5rem" },
    },
  },
} satisfies Config;
