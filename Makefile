# Every target sets up what it needs; all are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
NGINX_BROTLI := /usr/lib/nginx/modules/ngx_http_brotli_static_module.so
CADDY := /usr/bin/caddy
# Playwright drives Debian's Chromium; it must never download a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test setup native lint typecheck jscheck unit bench clean pyodide vendor bytecode debian browser hosts lock site \
	docs wheels

run: setup
	$(BIN)/spider serve

# The slow steps (Brotli 11 of the runtime, the bytecode build under Node, TypeScript) run side
# by side on two cores.
setup: $(STAMP) pyodide
	$(MAKE) --no-print-directory -j2 vendor bytecode native $(NODE_STAMP)
	$(MAKE) --no-print-directory $(QR_JS)

# Exactly the versions pinned in requirements.lock, then the project itself; uv (pinned here)
# installs them in seconds where pip takes most of a minute. Again when the version changes
# (__version__ in src/spider/__init__.py), so that the installed metadata says it.
UV_VERSION := 0.13.8
# The lock pins PyTorch's CPU build (torch==2.13.0+cpu), which this kind of machine keeps in
# /opt/wheels: uv looks there only when told (pip's configuration names it, uv's does not).
TORCH_WHEELS := $(if $(wildcard /opt/wheels/torch-*),--find-links /opt/wheels)
$(STAMP): pyproject.toml requirements.lock src/spider/__init__.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python $(TORCH_WHEELS) -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	touch $(STAMP)

# The engine's kernel compiled by mypyc, next to its sources (no-op when current; without a C
# compiler it says so and the pure-Python modules run): docs/architecture.md, "The compiled build".
native: $(STAMP)
	$(BIN)/python scripts/build_native.py

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

# The QR encoder the sync dialog draws its code with: the npm package qrcode-generator, pinned in
# package-lock.json, copied beside the app (served, cached by sw.js, in the site and the wheel).
QR_JS := src/spider/web/vendor/qrcode.mjs
$(QR_JS): $(NODE_STAMP)
	mkdir -p $(dir $@)
	cp node_modules/qrcode-generator/dist/qrcode.mjs $@

# The web app's JavaScript (// @ts-check with JSDoc types), checked by tsc --noEmit: the page's
# modules (jsconfig.json) and the workers (jsconfig.worker.json).
jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc --noEmit -p jsconfig.json
	node_modules/.bin/tsc --noEmit -p jsconfig.worker.json

# Pyodide from the npm registry, pinned in src/spider/pyodide.lock.json (no-op when vendor/ is
# current).
# Then the Brotli (quality 11) of its large files, made once (no-op when current).
pyodide:
	$(PYTHON) scripts/fetch_pyodide.py

vendor: $(STAMP) pyodide
	$(BIN)/python scripts/precompress.py vendor/pyodide

# The standard library and the engine as bytecode, compiled by Pyodide's CPython under Node
# (no-op when current; rebuilt when the engine's sources or Pyodide change).
bytecode: $(STAMP) pyodide
	$(BIN)/python scripts/build_bytecode.py

# Debian's packages the tests need, in one apt-get run (no-op when installed): Chromium for the
# browser tests; nginx (with its Brotli module) and Caddy, which the tests serve the static site
# with; PostgreSQL, which the sync tests and benchmark keep data in. The tests run their own
# server processes, never the services.
DEBIAN_PACKAGES := chromium nginx-light libnginx-mod-http-brotli-static caddy postgresql
PG_INITDB = $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb))
debian:
	@test -x $(CHROMIUM) -a -x $(NGINX) -a -f $(NGINX_BROTLI) -a -x $(CADDY) \
	  -a -n "$(PG_INITDB)" || (apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEBIAN_PACKAGES))

browser hosts: debian

# The whole app as static files with nginx, Caddy and _headers configurations (docs/hosting.md).
site: setup
	$(BIN)/spider build-site site

# The documentation site (docs/ and the API reference from the docstrings) into build/docs;
# any warning is an error, so a docstring that breaks the reference fails make test.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --quiet

# What a user installs (docs/packaging.md): the wheel and sdist, and the runtime wheel with the
# pinned Pyodide (its sha512 checked again) and the bytecode, into dist/.
wheels: setup
	$(BIN)/python scripts/build_wheels.py --out dist

# Work stealing: with plain load scheduling one worker was left holding a queue of browser tests
# while the other sat idle (523 s against 397 s for the same suite). The 15 slowest tests are
# printed at the end: make test must stay under 10 minutes in CI.
unit: setup browser hosts
	$(BIN)/pytest -q -n 2 --dist worksteal --durations=15

test: browser hosts lint typecheck jscheck docs unit

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	find src/spider -name "*.so" -delete; rm -f src/spider/.native-stamp
	rm -rf $(VENV) vendor node_modules build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis
