# Pitboard: everything runs from a local virtualenv in .venv (created on first use).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
# a pip that resolves this project's dependencies in seconds (23.x spends most of a minute
# matching every wheel of aiohttp and Pillow against the platform's tags)
PIP_PIN := 'pip>=25,<27'
# the build backend pyproject.toml names, in the venv itself: the editable install then builds
# with it (--no-build-isolation) instead of fetching it into a throwaway environment first
BUILD_PIN := 'setuptools>=77,<81' 'wheel>=0.42,<1'

# The venv is made without ensurepip (which compiles its bundled pip: several seconds); the
# system's pip, where there is one, puts a current pip in it; else ensurepip does. Nothing is
# compiled ahead: Python compiles what is imported, once.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PIP) --version >/dev/null 2>&1 || \
		$(PYTHON) -m pip --quiet --python $(BIN)/python install $(PIP_PIN) >/dev/null 2>&1 || \
		$(BIN)/python -m ensurepip --default-pip >/dev/null
	$(PIP) install $(PIP_PIN) $(BUILD_PIN)
	$(PIP) install --no-compile --no-build-isolation -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pitboard sim --autoplay --laps 1 --cars 2 --legends 2 --weather random --road-conditions \
		--garage draft

lint: $(STAMP)
	$(BIN)/ruff check firmware_py tests benchmarks
	$(BIN)/mypy

# Bytecode is cached whatever the caller's environment says (PYTHONDONTWRITEBYTECODE would make
# every `pitboard` a test starts, and every test worker, compile all it imports again).
unexport PYTHONDONTWRITEBYTECODE

# The suite runs in parallel (pytest-xdist; the wheel and installer tests share one worker, which
# builds and installs the wheel once), one worker more than the cores: many tests wait on a
# process of their own (the installer, a browser, `pitboard run`). The test files' bytecode
# (pytest's rewritten asserts) is made once, beside the linters, not by every worker. The 10
# slowest tests are listed at the end, so drift shows.
#
# Temporary files (the tests' journals, fsynced at every decision, and the wheel test's venv)
# go to memory where there is a tmpfs: the tests check what the table does with its storage
# (benchmarks/powercut_soak.py measures a real disk's), and a disk's fsync would only wait.
TEST_TMPDIR ?= $(firstword $(wildcard /dev/shm) /tmp)
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(STAMP)
	$(BIN)/python -m pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1 & \
		$(MAKE) --no-print-directory lint; lint=$$?; wait; exit $$lint
	TMPDIR=$(TEST_TMPDIR) $(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup --durations=10

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/garage.py
	$(BIN)/python benchmarks/garage_soak.py
	$(BIN)/python benchmarks/season_soak.py
	$(BIN)/python benchmarks/sim_jobs.py
	$(BIN)/python benchmarks/module_soak.py
	$(BIN)/python benchmarks/expansion_tracks.py
	$(BIN)/python benchmarks/cold_start.py
	$(BIN)/python benchmarks/display_bytes.py
	$(BIN)/python benchmarks/table_latency.py
	$(BIN)/python benchmarks/press_to_glass.py
	$(BIN)/python benchmarks/table_inputs.py
	$(BIN)/python benchmarks/powercut_soak.py
	$(BIN)/python benchmarks/journal_damage.py
	$(BIN)/python benchmarks/phone_tap.py
	$(BIN)/python benchmarks/phone_soak.py
	$(BIN)/python benchmarks/track_view.py
	$(BIN)/python benchmarks/forecast_oracle.py --states 100

clean:
	rm -rf $(VENV) build *.egg-info firmware_py/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# Set up a Raspberry Pi OS machine, as root: make install-pi PROFILE=duo (sim, duo, grid6 or a
# .toml file). An installed /etc/pitboard/pitboard.toml is kept; NEW_CONFIG=1 replaces it.
.PHONY: install-pi install-pi-dry-run
install-pi:
	bash systemd/install-pi.sh

install-pi-dry-run:
	bash systemd/install-pi.sh --dry-run
