# Two commands: `make run` and `make test`. Both create .venv on first use and reinstall only
# when pyproject.toml changes, so the second call starts at once.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet
HTMX_VERSION := 2.0.11
DEJAVU_VERSION := 2.37.3
AXE_VERSION := 4.14.1
PYODIDE_VERSION := 314.0.7

.DEFAULT_GOAL := help
.PHONY: help run test test-fast test-database test-backends test-browser test-engine test-js lint lint-js node_modules format check-python vendor-htmx vendor-axe vendor-pyodide vendor-fonts docs-pictures cldr-numbers icons clean

help:
	@echo "make run   - install, migrate and serve on http://127.0.0.1:$(PORT)"
	@echo "make test  - install the dev extra and run the whole suite (browser journeys too)"
	@echo "make test-fast - every test but the browser journeys, on both cores"
	@echo "make lint  - ruff check, ruff format --check and ESLint"

check-python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Python 3.11 or newer is needed; set PYTHON=/path/to/python3.11"; exit 1; }

$(BIN)/python: | check-python
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[dev]'
	@touch $@ $(VENV)/.installed

# The JavaScript tools (ESLint; fake-indexeddb for the tests), exactly as package-lock.json pins
# them: npm ci runs again only when package.json or its lock file changes, and never writes
# the lock file.
node_modules: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# A machine with Python alone still runs `make test`: without node the JavaScript's tests and
# lint are skipped, said loudly; CI (JS_REQUIRED=1, which .ci/run sets) fails instead.
HAVE_NODE := $(shell command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_NODE),yes)
JS_TOOLS := node_modules/.installed
endif
define without_node
	@if [ -n "$$JS_REQUIRED" ]; then echo "node and npm are needed for $@ (JS_REQUIRED is set)"; exit 1; fi
	@echo "SKIPPED $@: node and npm are not installed (the phone's JavaScript is not checked)"
endef

# DEBUG defaults on here only: the settings default to off, which a deployment relies on.
run: $(VENV)/.installed
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py load_demo
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Where each test runs is decided by its folder's marker (tests/conftest.py): `browser`
# (tests/e2e) and `engine` (tests/scorekeeper/engine); the rest need a database. JOBS pytest
# workers share the machine's cores; the browser journeys run one at a time.
JOBS ?= 2
PYTEST := $(BIN)/python -m pytest
XDIST := $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS) --dist loadfile,-p no:xdist)

test: test-fast test-browser

test-fast: test-database test-engine test-js

# Every test that talks to the database, but the browser journeys.
test-database: $(VENV)/.installed-dev
	$(PYTEST) $(XDIST) -m "not browser and not engine"

# The database tests of what SQLite and PostgreSQL do differently (tests/conftest.py, BACKENDS):
# CI runs them on the database `make test` does not use.
test-backends: $(VENV)/.installed-dev
	$(PYTEST) $(XDIST) -m "backends and not browser and not engine"

# The engine's tests, with its line and branch coverage: the run fails below 95%.
test-engine: $(VENV)/.installed-dev
	$(PYTEST) $(XDIST) -m engine --cov=scorekeeper.engine --cov-branch \
		--cov-report=term-missing:skip-covered --cov-fail-under=95

# The phone's JavaScript (static/js/offline/) under node's own test runner: its logic without a
# browser, in a second; tests/js/*.test.mjs, which static/ never serves.
test-js: $(JS_TOOLS)
ifeq ($(HAVE_NODE),yes)
	node --test tests/js/
else
	$(without_node)
endif

# The journeys in Chromium (skipped without it, unless E2E_REQUIRED=1).
test-browser: $(VENV)/.installed-dev
	$(PYTEST) -p no:xdist -m browser

lint: $(VENV)/.installed-dev lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# static/js/ and tests/js/, by eslint.config.js (static/vendor/ is left to its own projects).
lint-js: $(JS_TOOLS)
ifeq ($(HAVE_NODE),yes)
	node_modules/.bin/eslint
else
	$(without_node)
endif

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The pictures of each kind of PDF in docs/, drawn from the demo data (needs pdftoppm).
docs-pictures: $(VENV)/.installed
	$(BIN)/python docs/pdf_pictures.py

# How each language writes a number, from Babel's CLDR data into the engine; commit the result.
cldr-numbers: $(VENV)/.installed-dev
	$(BIN)/python docs/cldr_numbers.py

# The app's PNG icons (static/icons/), drawn from static/favicon.svg by Chromium; commit them.
icons: $(VENV)/.installed-dev
	$(BIN)/python docs/app_icons.py

# htmx comes from the npm registry's htmx.org package, never from a CDN at run time.
vendor-htmx:
	rm -rf .vendor-tmp && mkdir .vendor-tmp
	cd .vendor-tmp && npm pack --silent htmx.org@$(HTMX_VERSION) && tar xzf htmx.org-$(HTMX_VERSION).tgz
	cp .vendor-tmp/package/dist/htmx.min.js .vendor-tmp/package/LICENSE static/vendor/htmx/
	rm -rf .vendor-tmp

# The browser tests run axe-core inside the page, loaded from static/ like any script of ours.
vendor-axe:
	rm -rf .vendor-tmp && mkdir .vendor-tmp
	cd .vendor-tmp && npm pack --silent axe-core@$(AXE_VERSION) && tar xzf axe-core-$(AXE_VERSION).tgz
	mkdir -p static/vendor/axe-core
	cp .vendor-tmp/package/axe.min.js .vendor-tmp/package/LICENSE static/vendor/axe-core/
	echo "axe-core $(AXE_VERSION) (npm registry), Mozilla Public License 2.0: see LICENSE. Refresh with make vendor-axe; only the browser tests load it." > static/vendor/axe-core/VERSION
	rm -rf .vendor-tmp

# Pyodide runs the engine on the phone for scoring offline (a Web Worker loads it after the first
# game page). Only what the runtime loads is kept: no console pages, types or source maps, and
# of the standard library (python_stdlib.zip) only the modules in tools/stdlib_kept.txt, which
# tools/trim_stdlib.py keeps (2.5 MB to 0.8 MB). The npm package ships no LICENSE file; its
# package.json says MPL-2.0, whose text axe-core ships.
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm pyodide-lock.json
vendor-pyodide:
	rm -rf .vendor-tmp && mkdir .vendor-tmp
	cd .vendor-tmp && npm pack --silent pyodide@$(PYODIDE_VERSION) && tar xzf pyodide-$(PYODIDE_VERSION).tgz
	grep -q '"license": "MPL-2.0"' .vendor-tmp/package/package.json
	rm -rf static/vendor/pyodide && mkdir -p static/vendor/pyodide
	cd .vendor-tmp/package && cp $(PYODIDE_FILES) ../../static/vendor/pyodide/
	$(PYTHON) tools/trim_stdlib.py .vendor-tmp/package/python_stdlib.zip \
		static/vendor/pyodide/python_stdlib.zip
	cp static/vendor/axe-core/LICENSE static/vendor/pyodide/LICENSE
	echo "pyodide $(PYODIDE_VERSION) (npm registry), Mozilla Public License 2.0: see LICENSE. Refresh with make vendor-pyodide; static/js/engine-worker.js loads it to score offline." > static/vendor/pyodide/VERSION
	rm -rf .vendor-tmp

# The PDFs embed DejaVu Sans Condensed (Latin, Greek, Cyrillic), from the npm registry.
vendor-fonts:
	rm -rf .vendor-tmp && mkdir .vendor-tmp
	cd .vendor-tmp && npm pack --silent dejavu-fonts-ttf@$(DEJAVU_VERSION) && tar xzf dejavu-fonts-ttf-$(DEJAVU_VERSION).tgz
	cp .vendor-tmp/package/ttf/DejaVuSansCondensed.ttf .vendor-tmp/package/ttf/DejaVuSansCondensed-Bold.ttf \
		.vendor-tmp/package/LICENSE scorekeeper/documents/pdf/fonts/
	rm -rf .vendor-tmp

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .coverage htmlcov
