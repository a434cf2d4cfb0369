# Two commands on a fresh machine (Python 3.11 + pip): `make run` and `make test`.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXTRAS ?= dev,analysis,bench,scale

.PHONY: install run test lint typecheck docs bench clean

$(STAMP): pyproject.toml requirements.lock
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c requirements.lock -e '.[$(EXTRAS)]'
	touch $(STAMP)

install: $(STAMP)

## the service on the embedded default: local ipykernel, ./nbcritic-data (files + SQLite)
run: $(STAMP)
	$(VENV)/bin/nbcritic serve $(ARGS)

## the linter, the type checker, the documentation site (strict: a broken link fails) and the
## whole test suite
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(MAKE) --no-print-directory typecheck
	$(MAKE) --no-print-directory docs
	$(PY) -m pytest $(PYTEST_ARGS)

## the documentation site into site/ (mkdocs.yml); --strict turns every warning into a failure
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

lint: $(STAMP)
	$(VENV)/bin/ruff check .

## mypy on app/ and services/ ([tool.mypy] in pyproject.toml, with its list of modules not yet checked)
typecheck: $(STAMP)
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) bench/execute_latency.py

clean:
	rm -rf $(VENV) nbcritic-data .pytest_cache .ruff_cache site
