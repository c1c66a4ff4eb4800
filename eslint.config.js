import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ZOD_MESSAGE = "Import z from domain/zod.ts, which turns off the eval probe the CSP forbids.";
const APP_IMPORTS = { group: ["~/*", "**/app/*"], message: "server/, domain/ and cli/ never import the React app." };

// server/ is a small kernel and one folder per capability (docs/conventions.md). The kernel knows no
// capability, except that its frozen migrations render bodies as they did; anything else reaches a
// capability only through its index.ts, the capability's public face.
const CAPABILITIES = fs
  .readdirSync("server", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "kernel")
  .map((entry) => entry.name);
const capabilityBoundaries = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const own = file.match(/^server\/([^/]+)\//)?.[1];
    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== "string") return;
      let target;
      if (specifier.startsWith("#server/")) target = `server/${specifier.slice("#server/".length)}`;
      else if (specifier.startsWith(".")) target = path.posix.join(path.posix.dirname(file), specifier);
      else return;
      const capability = target.match(/^server\/([^/]+)\//)?.[1];
      if (!capability || capability === own || !CAPABILITIES.includes(capability)) return;
      if (own === "kernel" && !file.startsWith("server/kernel/db/migrations/")) {
        context.report({
          node: node.source,
          message: `The kernel knows no capability: it may not import server/${capability}/.`,
        });
      } else if (target !== `server/${capability}/index.ts`) {
        context.report({
          node: node.source,
          message: `Import server/${capability}/ only through its public face, server/${capability}/index.ts.`,
        });
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

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
  {
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "cli/**/*.ts"],
    plugins: { inkwell: { rules: { "capability-boundaries": capabilityBoundaries } } },
    rules: { "inkwell/capability-boundaries": "error" },
  },
  // Comments have one owner (docs/conventions.md): only the comment service reads and writes their
  // SQL; remote-replies.ts is the part of it that takes replies from elsewhere.
  {
    files: ["server/**/*.ts", "cli/**/*.ts"],
    ignores: ["server/comments/service.ts", "server/comments/remote-replies.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            APP_IMPORTS,
            {
              group: [
                "**/repositories/comments.ts",
                "**/repositories/comments-remote.ts",
                "**/repositories/comment-moments.ts",
              ],
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
