# Two commands do everything: `make demo` serves the site with demo data, `make test` runs
# the whole suite. Both create the virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install browser serve migrate bench clean

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

test: install browser
	$(BIN)/lint-imports
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	bench/import_cards
	bench/rules

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
