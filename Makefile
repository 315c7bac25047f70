# Golf club: the two commands are `make run` and `make test`. Both call `make setup`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# Python keeps compiled modules, and pytest its rewritten test modules, in __pycache__ (ignored by
# git). Some machines set PYTHONDONTWRITEBYTECODE, which made every process of the suite (each
# pytest worker, each gunicorn and manage.py the tests start) compile the project again: collecting
# the suite took 6.6 s a process instead of 2.8 s (docs/performance.md, issue 18).
unexport PYTHONDONTWRITEBYTECODE

# The first interpreter of 3.12 or newer that actually runs (pyenv shims may exist but refuse).
PYTHON_CANDIDATES := python3.13 python3.12 $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3) \
	$(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) python3 python
FIND_PYTHON := for p in $(PYTHON_CANDIDATES); do \
	if $$p -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then echo $$p; break; fi; done

.PHONY: setup run test lint format bench loadtest screenshots check-deploy clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then \
		PYBIN=$$($(FIND_PYTHON)); \
		if [ -z "$$PYBIN" ]; then echo "Python 3.12 or newer is needed; none was found on PATH." >&2; exit 1; fi; \
		echo "Creating $(VENV) with $$PYBIN"; rm -rf $(VENV); $$PYBIN -m venv $(VENV); \
	fi
	@# uv installs the same pinned packages as pip in a third of the time (7 s instead of 19-27 s on a
	@# fresh clone here); pip is the fallback where uv cannot be had or fails. Bytecode is compiled at install,
	@# as pip does, so no process compiles the packages again.
	@if $(PY) -m pip install --quiet uv && \
		$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e ".[dev]"; then :; \
	else \
		echo "uv could not install the packages: installing them with pip"; \
		$(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e ".[dev]"; \
	fi
	@touch $(STAMP)

# A local server is development: DEBUG=true explicitly (unset means production).
# `make run PORT=8001` (and HOST=0.0.0.0 to be reached from a phone on the same network).
HOST ?= 127.0.0.1
PORT ?= 8000
# The address the demo commands print their links with: this server's port; 0.0.0.0 (every
# interface) is not an address a browser opens, so the links then name 127.0.0.1.
LINK_HOST = $(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(HOST))
run: export DEBUG ?= true
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py load_demo --base-url http://$(LINK_HOST):$(PORT)
	$(PY) manage.py load_demo_tournament --base-url http://$(LINK_HOST):$(PORT)
	$(PY) manage.py load_demo_club --base-url http://$(LINK_HOST):$(PORT)
	$(PY) manage.py runserver $(HOST):$(PORT)

# The checks run on development-shaped settings like pytest (tests/settings.py); production settings
# are checked by tests/test_deploy.py and `make check-deploy`.
# pytest runs in parallel processes (pytest-xdist), each with its own test database (test_<name>_gw0,
# ...) and Chromium; whole test files go to one process, so module fixtures are built once, slowest
# files first (tests/conftest.py: SLOWEST_FILES_FIRST; xdist's own reordering is turned off).
# `make test PYTEST_WORKERS=` runs in one process; PYTEST_ARGS adds options (`PYTEST_ARGS="-k undo"`).
PYTEST_WORKERS ?= -n 2 --dist loadfile --no-loadscope-reorder
test: export DEBUG ?= true
test: setup
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m tools.check_conventions
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The project's own conventions (tools/custom_rules.py) after ruff's: `python -m tools.check_conventions --rules`.
lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m tools.check_conventions

format: setup
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

bench: setup
	$(PY) bench/engine.py
	$(PY) bench/live_games.py
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/golfclub} $(PY) bench/tournament.py
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/golfclub} $(PY) bench/club_ratings.py

# Retake the pictures in docs/screenshots/ from the browser tests (needs Chromium).
# The event-day load test (bench/loadtest.py): a 250-table round behind nginx with 1,000 spectators
# polling, the round-end burst, the knee, then the database checked against what was acknowledged.
# Needs PostgreSQL and Redis on loopback and Debian's nginx (installed here if missing); about 10
# minutes. LOADTEST_ARGS passes options ("--instances 2", "--tables 50 --spectators 200").
loadtest: setup
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || \
		(DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light openssl >/dev/null)
	$(PY) bench/loadtest.py $(LOADTEST_ARGS)

screenshots: setup
	GOLFCLUB_SCREENSHOTS=1 $(PY) -m pytest -m browser -q

check-deploy: setup
	DEBUG=false SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
		ALLOWED_HOSTS=golf.example.com $(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) .pytest_cache db.sqlite3 staticfiles
