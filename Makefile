# Every target sets up what it needs; all are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
NGINX_BROTLI := /usr/lib/nginx/modules/ngx_http_brotli_static_module.so
CADDY := /usr/bin/caddy
# Playwright drives Debian's Chromium; it must never download a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test setup lint typecheck unit bench clean vendor bytecode browser hosts lock site

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

# Debian's nginx (with its Brotli module) and Caddy, which the tests serve the static site with
# (no-op when installed). The tests run their own server processes, never the services.
hosts:
	@test -x $(NGINX) -a -f $(NGINX_BROTLI) -a -x $(CADDY) || (apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light libnginx-mod-http-brotli-static caddy)

# The whole app as static files with nginx, Caddy and _headers configurations (docs/hosting.md).
site: setup
	$(BIN)/spider build-site site

unit: setup browser hosts
	$(BIN)/pytest -q -n 2

test: browser hosts lint typecheck unit

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) vendor .mypy_cache .ruff_cache .pytest_cache .hypothesis
