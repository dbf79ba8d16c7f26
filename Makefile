# Pegboard: `make run` serves the demo, `make test` runs the whole suite. Both set up .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
# `PORT=8300 make run` serves on another port; the e-mails' links follow it unless SITE_URL is set.
PORT ?= 8000

.PHONY: run venue test lint format bench bench-load bench-instructions bench-replay clean

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
	DEBUG=true SITE_URL="$${SITE_URL:-http://127.0.0.1:$(PORT)}" \
		$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Venue mode (README "No internet at the venue"): production settings on this laptop, gunicorn on
# every interface for the phones on the venue's router, SQLite in venue/ (or --database-url),
# no broker. Prints the address and its QR code. `make venue ARGS="--port 8080"`.
venue: $(VENV)/.installed-run
	$(BIN)/python -m config.venue --port $(PORT) $(ARGS)

# axe-core for the accessibility test (tests/browser/test_a11y.py), from package-lock.json.
# Without npm the suite still runs locally (that test skips, saying why); CI installs npm.
node_modules/.package-lock.json: package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund && touch $@; \
	else echo "npm not found: the accessibility test will skip (install Node.js and npm to run it)"; fi

test: $(VENV)/.installed-dev node_modules/.package-lock.json
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
	$(BIN)/python bench/load.py $(ARGS)

# Instructions a report and a page opening cost, the same on a fast or a slow machine, against
# the stack's own limit (bench/instructions.py; valgrind's callgrind counts them).
bench-instructions: $(VENV)/.installed-dev
	command -v valgrind >/dev/null || (apt-get update && apt-get install -y valgrind)  # as root
	$(BIN)/python bench/instructions.py

# The storm when the venue's network returns: 1,024 held reports, each sent twice with one
# Idempotency-Key within 5 s, on the same stack (bench/replay.py).
bench-replay: $(VENV)/.installed-dev
	$(BIN)/python bench/replay.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache
