# pipesctl — the two commands a newcomer needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
MECHA_VENV := .venv-mecha
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MECHA_STAMP := $(MECHA_VENV)/.installed

.PHONY: demo test lint typecheck unit bench docker-test clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# mecha (command grammar checker) pins nbtlib<2, so it lives in its own virtualenv.
$(MECHA_STAMP): tools/mecha-requirements.txt
	test -x $(MECHA_VENV)/bin/python || $(PYTHON) -m venv $(MECHA_VENV)
	$(MECHA_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MECHA_VENV)/bin/python -m pip install --quiet -r tools/mecha-requirements.txt
	touch $(MECHA_STAMP)

demo: $(STAMP)
	$(BIN)/pipesctl demo

lint: $(STAMP)
	$(BIN)/ruff check controller tests bench
	$(BIN)/ruff format --check controller tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The suite on every logical CPU (pytest-xdist; PYTEST_XDIST_AUTO_NUM_WORKERS=N sets N workers):
# worksteal, as the tests take from milliseconds to seconds.
unit: $(STAMP) $(MECHA_STAMP)
	PIPESCTL_MECHA_PYTHON=$(MECHA_VENV)/bin/python $(BIN)/python -m pytest -q -n logical --dist worksteal

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m bench.run

docker-test: $(STAMP)
	$(BIN)/python -m pytest -q -m docker tests/docker -rs

clean:
	rm -rf $(VENV) $(MECHA_VENV) .mypy_cache .pytest_cache .ruff_cache
