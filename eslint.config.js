import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ZOD_MESSAGE = "Import z from domain/zod.ts, which turns off the eval probe the CSP forbids.";
const APP_IMPORTS = { group: ["~/*", "**/app/*"], message: "server/, domain/ and cli/ never import the React app." };

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "playwright-report/", "test-results/", ".e2e-data/"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  // One direction for dependencies (docs/conventions.md): app → server → domain, never back.
  {
    files: ["server/**/*.ts", "domain/**/*.ts", "cli/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [APP_IMPORTS] }] },
  },
  // Comments have one owner (docs/conventions.md): only the comment service reads and writes their SQL.
  {
    files: ["server/**/*.ts", "cli/**/*.ts"],
    ignores: ["server/services/comments.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            APP_IMPORTS,
            {
              group: ["**/repositories/comments.ts", "**/repositories/comments-remote.ts"],
              message: "Only the comment service reads and writes comments: go through services.comments.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["domain/**/*.ts"],
    ignores: ["domain/zod.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "zod", message: ZOD_MESSAGE }],
          patterns: [
            { group: ["~/*", "**/app/*"], message: "domain/ never imports the React app." },
            { group: ["#server/*", "**/server/*", "node:*"], message: "domain/ is shared with the browser." },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: ZOD_MESSAGE }] }],
    },
  },
  {
    files: ["app/components/**/*.tsx", "app/components/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "zod", message: ZOD_MESSAGE }],
          patterns: [
            { group: ["#server/*", "**/server/*"], message: "Components take domain types, never server code." },
          ],
        },
      ],
    },
  },
);
