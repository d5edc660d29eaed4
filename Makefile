# JudgeScope: `make run` serves the embedded demo; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test test-fast lint demo bench soak dist clean

$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .   # the `judgescope` command, from this checkout
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# make run DATA="a.jsonl b.parquet folder/": serve those files (a manifest inferred, see `judgescope open`)
run: $(VENV)/.installed
ifdef DATA
	$(VENV)/bin/judgescope open $(DATA) --port $(PORT)
else
	$(PY) -m judgescope.web.serve --server.headless true --server.address 127.0.0.1 --server.port $(PORT)
endif

test: $(VENV)/.installed-dev
# Two phases, each on two workers (tests/conftest.py): the tests without a browser, then the
# Chromium tests, so a browser never waits on a core busy with CPU-bound tests. The Chromium
# tests write screenshots/ afresh (each test its own files).
	$(PY) -m pytest -q -n 2 -m "not browser" --durations=25; a=$$?; \
	rm -rf screenshots; $(PY) -m pytest -q -n 2 -m browser --durations=25; b=$$?; \
	test $$a -eq 0 && test $$b -eq 0

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

test-fast: $(VENV)/.installed-dev
	$(PY) -m pytest -q -m "not browser"

# dist/: the sdist and the wheel (hatchling, pinned in requirements-dev.txt; offline), what
# `pip install`, pipx and uvx install; tests/test_wheel.py installs the same wheel.
dist: $(VENV)/.installed-dev
	rm -rf dist
	$(PY) -m hatchling build -d dist

demo: $(VENV)/.installed
	$(PY) -m judgescope.demo data/demo

bench: $(VENV)/.installed
	$(PY) -m bench

soak: $(VENV)/.installed-dev
	$(PY) -m bench.soak --sessions 20 --seconds 60

clean:
	rm -rf $(VENV) .pytest_cache screenshots bench/data dist
