// ESLint for the page of `rummy serve` (rummy/web/static/): ES modules the browser loads as they
// are, no build step. `npm ci && npx eslint rummy/web/static` (.ci/run runs it); docs/serve.md
// says why these rules.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["rummy/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: {reportUnusedDisableDirectives: "error"},
    rules: {
      "no-unused-vars": ["error", {args: "after-used", argsIgnorePattern: "^_", caughtErrors: "all"}],
      "no-redeclare": "error",
      "no-shadow": "error",
      "no-implicit-globals": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      // The server will send Content-Security-Policy "default-src 'self'": no code from strings,
      // and no HTML from strings (elements are built with el(), text with textContent).
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
      "no-restricted-properties": ["error",
        ...["innerHTML", "outerHTML", "insertAdjacentHTML"].map((property) => ({
          property, message: "build elements with el() and set text with textContent (no HTML from strings)"})),
        {object: "document", property: "write", message: "build elements with el()"}],
    },
  },
];
