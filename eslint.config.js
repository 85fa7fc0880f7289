// ESLint for the phone's JavaScript (static/js/) and its node tests (tests/js/): `make lint-js`.
// Each file gets the globals of where it runs (a page, a worker, the service worker, node) and
// no others: a page's global in a worker is an error waiting to happen.
import js from "@eslint/js";
import globals from "globals";

const WORKERS = ["static/js/sw.js", "static/js/engine-worker.js"];

export default [
  // The vendored libraries are their own projects' to lint; node_modules/ is skipped anyway.
  { ignores: ["static/vendor/", "staticfiles/", ".venv/", "e2e-screenshots/", "test-results/", "htmlcov/"] },
  { files: ["static/js/**/*.js", "tests/js/**/*.mjs", "eslint.config.js"], ...js.configs.recommended },
  {
    files: ["static/js/**/*.js"],
    ignores: WORKERS,
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  // Classic scripts (<script defer> in base.html), not modules.
  { files: ["static/js/app.js", "static/js/register-sw.js"], languageOptions: { sourceType: "script" } },
  // A module worker, started by engine.js.
  { files: ["static/js/engine-worker.js"], languageOptions: { sourceType: "module", globals: globals.worker } },
  // The service worker, a classic script; the /sw.js view puts `self.SHELL = {...}` before it
  // (scorekeeper/offline/shell.py), which it reads through `self`.
  { files: ["static/js/sw.js"], languageOptions: { sourceType: "script", globals: globals.serviceworker } },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
