# Every target sets up what it needs; all are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint typecheck unit bench clean

run: setup
	$(BIN)/spider serve

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check src tests benchmarks

typecheck: setup
	$(BIN)/mypy --strict src/spider

unit: setup
	$(BIN)/pytest -q -n 2

test: lint typecheck unit

bench: setup
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) vendor .mypy_cache .ruff_cache .pytest_cache .hypothesis
