# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
TT     := $(VENV)/bin/tabletape
DEMO   := replays/cards-of-war/kill-dispute.jsonl
MKDOCS := NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

.PHONY: demo test stress lint schemas docs bench bench-balance balance-stress clean screenshots

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,view,dask,docs]'
	touch $@

# The umpire's job on a bundled game: validate it (disputes get rulings), read it,
# rule on the disputed KILL at seq 21, show the final table, and write the game as
# a page to step through in a browser (open the path it prints).
DEMO_HTML := build/kill-dispute.html
demo: $(VENV)/.installed
	$(TT) validate $(DEMO)
	$(TT) log $(DEMO)
	$(TT) explain $(DEMO) 21
	$(TT) replay $(DEMO)
	@mkdir -p build
	$(TT) view $(DEMO) -o $(DEMO_HTML)
	@echo "open $(abspath $(DEMO_HTML))#seq=21"
	@echo "tabletape is installed in .venv: run . .venv/bin/activate (or .venv/bin/tabletape)"

lint: $(VENV)/.installed
	$(PY) -m ruff check src tests

schemas: $(VENV)/.installed
	$(TT) schema -o schemas

# The manual (docs/*.md, the README's introduction on its home page) as a site in build/site;
# --strict: a broken link or anchor, or a page missing from mkdocs.yml's nav, fails it.
docs: $(VENV)/.installed
	$(MKDOCS)

# The whole suite spread over 2 processes by pytest-xdist (-n 2, as CI has 2 cores;
# TEST_WORKERS=auto for one per core). --dist loadfile: each test file runs whole on one
# worker, so that a module's fixtures (a browser, a long log) are made once and the modules
# that tally one figure over their tests (tests/cli/test_trust_cli.py, ...) see all of them.
# The pytest plugin's tests run under xdist too; one of them runs the plugin itself on
# xdist's workers and checks that the whole baseline is written.
TEST_WORKERS ?= 2
test: $(VENV)/.installed
	$(PY) -m ruff check src tests
	$(VENV)/bin/lint-imports
	$(PY) -m mypy
	$(TT) schema --check schemas
	$(MKDOCS)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# The benchmark (not part of `make test`): inputs cached in build/bench, BENCH_QUICK=1 for a
# smoke run. The peers (python-chess, eventsourcing) come from the `bench` extra.
$(VENV)/.bench-installed: $(VENV)/.installed pyproject.toml
	$(PY) -m pip install -q -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.bench-installed
	$(PY) bench/run.py --markdown

# The games' rows of `make bench` alone (no inputs to make): per game, `simulate`'s random
# games per second beside the balance lab's random playouts of the same games, their floor
# (pending + apply) and mc:8's decisions per second, in CPU time; the ratios at the end.
# `simulate` also runs from the tree of the day the lab was asked for (issue 37's "twice
# today's rate"; BALANCE_BEFORE, a commit), marked [before], where git can write that tree.
BALANCE_BEFORE ?= 411e4d8
bench-balance: $(VENV)/.installed
	@rm -rf build/bench-balance-before && mkdir -p build/bench-balance-before
	@if git archive $(BALANCE_BEFORE) src 2>/dev/null | tar -x -C build/bench-balance-before \
			2>/dev/null && [ -d build/bench-balance-before/src ]; then \
		$(PY) bench/run.py --playouts --markdown --before build/bench-balance-before/src; \
	else \
		echo "no tree at $(BALANCE_BEFORE): today's simulate only" >&2; \
		$(PY) bench/run.py --playouts --markdown; \
	fi

# The reliability tests (tests/reliability) with their big budgets: every byte of the
# tampered log, 100,000 hostile inputs, 5,000 kills, ... Prints the figures; takes a while.
STRESS_FIGURES ?= stress-figures.jsonl
stress: $(VENV)/.installed
	rm -f $(STRESS_FIGURES)
	TABLETAPE_STRESS=1 TABLETAPE_FIGURES=$(STRESS_FIGURES) nice $(PY) -m pytest tests/reliability
	@echo; echo "figures (also in $(STRESS_FIGURES)):"
	@$(PY) -m tests.reliability.figures $(STRESS_FIGURES)

# The balance lab at scale (issue 37; not part of `make test` or `make stress`): BALANCE_GAMES
# random games of Cards of War (100,000) in one run of BALANCE_JOBS processes, no cache; the
# report, then the time it took and the games per second.
BALANCE_GAMES ?= 100000
BALANCE_JOBS  ?= 2
balance-stress: $(VENV)/.installed
	@mkdir -p build
	@start=$$(date +%s.%N); \
	$(TT) balance cards-of-war -n $(BALANCE_GAMES) -j $(BALANCE_JOBS) --seed 1 --no-cache \
		--markdown build/balance-stress.md && \
	end=$$(date +%s.%N) && \
	awk -v s=$$start -v e=$$end -v n=$(BALANCE_GAMES) -v j=$(BALANCE_JOBS) 'BEGIN { \
		printf "%d games in %.1f s (%d processes): %.0f games/s\n", n, e - s, j, n / (e - s) }'

# The manual's screenshots, made again by the browser tests: docs/viewer-GAME.png (on
# docs/seeing.md); each game's player page and shared table mid-game at 390x844 and 1280x900,
# docs/play-GAME-390.png, table-GAME-1280.png, ... (on docs/play.md); the seat page's bar,
# offline banner and game over, docs/play-bar-390.png, play-offline-390.png, ...
PLAY_SHOTS := $(foreach g,cards-of-war liberation global-domination battlecards-pacific,\
	$(foreach k,play table,$(foreach w,390 1280,build/screenshots/$(k)-$(g)-$(w).png)))
screenshots: $(VENV)/.installed
	TABLETAPE_DOCS_SCREENSHOTS=1 $(PY) -m pytest tests/app/test_browser.py -k disputed_replay
	TABLETAPE_BROWSER_TESTS=require $(PY) -m pytest tests/app/test_browser_play.py \
		-k "each_games_pages"
	TABLETAPE_DOCS_SCREENSHOTS=1 TABLETAPE_BROWSER_TESTS=require $(PY) -m pytest \
		tests/app/test_browser_table.py tests/app/test_browser_play.py \
		-k "first_screen or offline or whole_short_game"
	cp $(PLAY_SHOTS) docs/

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
