import { defineConfig, globalIgnores } from "eslint/config";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextCoreWebVitals,
  ...nextTypescript,
  globalIgnores([".next/**", ".next-*/**", "node_modules/**", ".data/**", "drizzle/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // CommonJS config files (dependency-cruiser reads .cjs): require() is how they load.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Server actions are named …Action and reach client components as props (.dependency-cruiser.cjs).
    files: ["app/**/actions.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name!=/Action$/]", message: "A server action's name ends in Action." },
        { selector: "ExportNamedDeclaration > FunctionDeclaration[id.name!=/Action$/]", message: "A server action's name ends in Action." },
      ],
    },
  },
  {
    // The sandbox imitates the provider and must stay independent of the app it checks.
    files: ["sandbox/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/lib/*", "../lib/*"], message: "The sandbox must not import the app's code." }] }],
    },
  },
]);
