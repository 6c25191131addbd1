# The two quick-start commands: `make league` (a league night on the shipped bots) and `make test`.
# Each creates the virtual environment .venv when it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: league test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

league: $(STAMP)
	$(BIN)/arena run tournaments/league-night.yaml

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check --no-cache .
	$(BIN)/ruff format --check --no-cache .

bench: $(STAMP)
	$(BIN)/arena bench engine

clean:
	rm -rf $(VENV) build *.egg-info
