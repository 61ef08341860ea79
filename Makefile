# Two commands do everything: `make demo` serves the site with demo data, `make test-all` runs
# the whole suite (CI runs it). `make test` is the everyday run: all but the browser tests.
# All create the virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-all check install browser serve migrate bench clean messages

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	DEBUG=1 $(BIN)/python manage.py load_demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# The browser tests need Chromium and chromedriver: installed with apt-get when possible.
browser:
	.ci/install_browser

# The static checks run first (a minute from cold, seconds after): lint, layout, types, import contracts.
check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

# The suite runs in parallel (pytest-xdist; each worker its own test database and Redis
# database, tests/parallel.py). Much of it waits on sockets, timers and the browser, so more
# workers than cores pays: 3 on 2 cores.
TEST_WORKERS ?= 3
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist load

test: check
	$(PYTEST) -m "not e2e" $(PYTEST_ARGS)
	@echo "Browser tests (tests/e2e, Chromium) not run: make test-all runs everything."

test-all: check browser
	$(PYTEST) $(PYTEST_ARGS)

# Translators: after strings change, refresh locale/*/LC_MESSAGES/*.po, translate, then compile.
# Needs GNU gettext (apt-get install gettext); the compiled .mo files are committed, so running
# the site and the tests never needs it.
LOCALES := -l pt_BR -l es -l it -l ru
MSG_IGNORE := --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=deploy
messages: install
	$(BIN)/python manage.py makemessages $(LOCALES) $(MSG_IGNORE) --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs $(LOCALES) $(MSG_IGNORE) --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv

bench: install
	bench/import_cards
	bench/rules

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
