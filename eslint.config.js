// ESLint (flat config): typescript-eslint's type-aware rules for the TypeScript sources, the plain
// recommended rules for the JavaScript entry points and scripts, and the React hooks rules for components.
// The rules kept are the ones that catch bugs (promises nobody awaits, awaits of non-promises, unsafe `any`
// flows); purely stylistic rules are off so the linter only speaks when something is likely wrong.
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["build/**", "build.lock/**", ".react-router/**", "node_modules/**", "test-results/**", "playwright-report/**", "data/**", "public/**"],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },

  // JavaScript: entry points, scripts and this file. Not in the TypeScript program, so no type-aware rules.
  {
    files: ["**/*.{js,mjs,cjs}"],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
  },

  // TypeScript: type-aware recommended rules through the project service (tsconfig.json).
  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The bugs this linter is here for (all in recommendedTypeChecked; listed to say so).
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Loaders and actions throw Responses (redirects, 404s) and React Router's data() by design.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: "DataWithResponseInit" },
          ],
        },
      ],
      // Style rather than bugs: an async loader without await is fine, `any` is a deliberate choice where
      // it is written (Kysely<any> in frozen migrations), and escapes or control characters in a regular
      // expression are how the input sanitisers spell what they strip.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "no-control-regex": "off",
      "no-useless-escape": "off",
      // Tidiness rather than bugs, and wrong where an assertion keeps a literal union from widening to string.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // TypeScript already reports undefined names, and knows the DOM and Node globals better than this rule.
      "no-undef": "off",
    },
  },
  {
    // Tests read JSON bodies (typed `any`) and poke at them; the unsafe-any rules would flag every assertion.
    files: ["tests/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },

  // React components and hooks.
  {
    files: ["app/**/*.tsx", "app/**/use-*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
);
