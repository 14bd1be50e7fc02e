# Every target sets up what it needs; all are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CHROMIUM := /usr/bin/chromium
# Playwright drives Debian's Chromium; it must never download a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test setup lint typecheck jscheck unit bench clean vendor bytecode browser lock

run: setup
	$(BIN)/spider serve

setup: $(STAMP) vendor bytecode

# Exactly the versions pinned in requirements.lock, then the project itself.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Pin the dependencies of pyproject.toml again (after changing them).
lock:
	$(PYTHON) scripts/lock.py

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: setup
	$(BIN)/mypy --strict src/spider

# TypeScript's compiler, exactly as pinned in package-lock.json (only for checking the JavaScript).
$(NODE_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $(NODE_STAMP)

# The web app's JavaScript (// @ts-check with JSDoc types), checked by tsc --noEmit: the page's
# modules (jsconfig.json) and the workers (jsconfig.worker.json).
jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc --noEmit -p jsconfig.json
	node_modules/.bin/tsc --noEmit -p jsconfig.worker.json

# Pyodide from the npm registry, pinned in pyodide.lock.json (no-op when vendor/ is current).
# Then the Brotli (quality 11) of its large files, made once (no-op when current).
vendor: $(STAMP)
	$(PYTHON) scripts/fetch_pyodide.py
	$(BIN)/python scripts/precompress.py vendor/pyodide

# The standard library and the engine as bytecode, compiled by Pyodide's CPython under Node
# (no-op when current; rebuilt when the engine's sources or Pyodide change).
bytecode: $(STAMP) vendor
	$(BIN)/python scripts/build_bytecode.py

# Debian's Chromium for the browser tests (no-op when installed).
browser:
	@test -x $(CHROMIUM) || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

unit: setup browser
	$(BIN)/pytest -q -n 2

test: browser lint typecheck jscheck unit

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) vendor node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis
