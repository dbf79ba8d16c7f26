# Pegboard: `make run` serves the demo, `make test` runs the whole suite. Both set up .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: run test lint format bench bench-load clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP) install -e ".[dev]"
	touch $(VENV)/.installed-run $@

run: $(VENV)/.installed-run
	DEBUG=true $(BIN)/python manage.py migrate --noinput
	DEBUG=true $(BIN)/python manage.py seed_demo
	DEBUG=true $(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(VENV)/.installed-dev
	DEBUG=true $(BIN)/python -m pytest -n auto

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(VENV)/.installed-dev
	$(BIN)/python bench/scoring.py
	$(BIN)/python bench/pairing.py

# A 1,024-player burst on gunicorn, PostgreSQL, Redis and a Celery worker (bench/load.py).
bench-load: $(VENV)/.installed-dev
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache
