# Two commands set everything up on a fresh machine with Python 3.11+: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum requirements.lock | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install compile run test lint format screenshots benchmarks

$(STAMP): requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==0.13.9
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements.lock
	rm -f $(VENV)/.installed-* && touch $@

# The frameworks' own tests ship in their source distributions only (tests/client/test_*_upstream.py run
# them against memgov's adapters). Fetched here, at the versions requirements.lock pins, each checked
# against its digest in upstream-tests.sha256; a test run never reaches the network.
LGC_VERSION := $(shell sed -n 's/^langgraph-checkpoint==//p' requirements.lock)
UPSTREAM := var/upstream/langgraph_checkpoint-$(LGC_VERSION)
OAI_VERSION := $(shell sed -n 's/^openai-agents==//p' requirements.lock)
OAI_UPSTREAM := var/upstream/openai_agents-$(OAI_VERSION)

var/upstream/%.tar.gz: | $(STAMP)
	mkdir -p var/upstream
	$(BIN)/python -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
		-d var/upstream "$(shell echo $* | sed 's/_/-/; s/-\([0-9][^-]*\)$$/==\1/')"
	cd var/upstream && grep " $*.tar.gz$$" ../../upstream-tests.sha256 | sha256sum -c --quiet

$(UPSTREAM)/tests/test_store.py: var/upstream/langgraph_checkpoint-$(LGC_VERSION).tar.gz
	tar -xzf $< -C var/upstream
	touch $@

$(OAI_UPSTREAM)/tests/memory/test_session.py: var/upstream/openai_agents-$(OAI_VERSION).tar.gz
	tar -xzf $< -C var/upstream
	touch $@

install: $(STAMP) $(UPSTREAM)/tests/test_store.py $(OAI_UPSTREAM)/tests/memory/test_session.py

# Bytecode compiled ahead, for the packages (at install) and the project: a process that may not write it
# (PYTHONDONTWRITEBYTECODE, a read-only tree) would otherwise compile every module from source at each start.
compile: install
	$(BIN)/python -m compileall -q -j 0 -x '(^|/)(\.venv|var|\.git|node_modules)/' .

run: install compile
	MEMGOV_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	MEMGOV_DEBUG=1 $(BIN)/python manage.py migrate --database keys --noinput
	MEMGOV_DEBUG=1 $(BIN)/python manage.py move_data_keys
	MEMGOV_DEBUG=1 $(BIN)/python manage.py seed_demo
	@echo "memgov: log in at http://$(HOST):$(PORT)/accounts/login/ as alice / memgov-demo"
	@echo "memgov: web, one Celery worker and the beat start together; Ctrl-C stops all three"
	MEMGOV_DEBUG=1 $(BIN)/python manage.py run_stack --host $(HOST) --port $(PORT)

# One pytest-xdist worker per core, each test file on one worker (its module fixtures set up once); every
# worker has databases of its own. `make test PYTEST_ARGS=tests/…` runs some tests, in one process.
PYTEST_ARGS ?= -n auto --dist loadfile
test: install compile
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The pictures in docs/screenshots/, taken by the browser tests (a plain test run never writes them).
screenshots: install
	MEMGOV_UPDATE_DOCS_SCREENSHOTS=1 $(BIN)/pytest tests/browser -q

# docs/benchmark-figures.md: every benchmark, each on a fresh SQLite database, with the date and the machine's probe.
benchmarks: install
	MEMGOV_DEBUG=1 $(BIN)/python manage.py bench_report
