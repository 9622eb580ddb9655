# mcscope: `make up` sets up and starts everything on the local testbed; `make test` runs
# every suite. Both install what is missing first, so they work on a clean clone.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PY := .venv/bin/python
LOCAL := infra/local

.PHONY: help up down setup deps services build build-middleware build-ui sshd \
        check test test-cpp test-python test-frontend lint docs docs-build bench-db bench-compare bench-analysis bench-figures \
        bench-middleware bench-report bench-runs bench-slo bench-monitor bench-cloud fuzz-middleware fuzz-api \
        compose-check

# Python writes bytecode caches (gitignored) whatever the caller's environment says: without
# them pytest rewrites the asserts of ~470 test modules in every pytest process (collection
# 24 -> 6.5 CPU s each, measured 2026-11-29) and each Python process compiles the project's
# modules again.
unexport PYTHONDONTWRITEBYTECODE

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

up: setup build sshd  ## install what is missing, build, migrate, start API + worker, print the URL
	@$(LOCAL)/start.sh

down:  ## stop the API, worker and sshd that `make up` started (by PID)
	@$(LOCAL)/stop.sh

setup: deps services

deps:
	@$(LOCAL)/install-deps.sh

services: deps
	@$(LOCAL)/services.sh

build: build-middleware build-ui docs-build

build-middleware: deps
	@bash middleware-cpp/scripts/build.sh release --no-tests

build-ui: deps
	@bash frontend/scripts/build.sh

# The documentation site (mkdocs.yml, docs/): built strict (a broken link or a page missing from
# the nav fails) into var/site, which the API serves at /guide/.
docs-build: deps
	@NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet

docs: deps  ## serve the documentation site with live reload at http://127.0.0.1:8001/
	@NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs serve --strict -a 127.0.0.1:8001

sshd: deps
	@bash $(LOCAL)/sshd.sh start

# The load tests at normal priority, lint + C++ + load-free Python tests beside them at SCHED_IDLE,
# then the frontend alone (infra/local/test-all.sh says why).
test: setup  ## run every suite: lint, C++ (sanitizers, fuzzing), Python, frontend unit and e2e
	@bash $(LOCAL)/test-all.sh

test-cpp:
	@bash middleware-cpp/scripts/test.sh

# make check's load-free tests: three pytest-xdist workers (276 s against 295-314 s on two,
# 2026-11-29: the workers wait on subprocesses, SSH and PostgreSQL, which is not their CPU).
PYTEST_PARALLEL ?= -n 3 --dist loadgroup

test-python: build-middleware
	@bash $(LOCAL)/test-python.sh

check: deps  ## the quick edit-test loop: lint, types, docs, every test that puts no load on the machine
	@PYTEST_PARALLEL="$(PYTEST_PARALLEL)" bash $(LOCAL)/check.sh

test-frontend:
	@bash frontend/scripts/test.sh

lint:  ## ruff and mypy --strict on the Python code
	@.venv/bin/ruff check backend worker infra migrations conftest.py docs/hooks
	@.venv/bin/mypy backend worker infra docs/hooks

bench-db: setup  ## aggregation queries on a synthetic 2,000-run experiment
	@$(PY) -m backend.scripts.bench_db

bench-compare: setup  ## compare endpoints on two seeded experiments of 2,000 runs each
	@$(PY) -m backend.scripts.bench_compare

bench-report: setup  ## report.pdf of the largest grid allowed: build time, size, pages
	@$(PY) -m backend.scripts.bench_report

bench-analysis: deps  ## queueing models, factorial design and aggregation timings
	@$(PY) -m backend.scripts.bench_analysis

bench-runs: setup build-middleware  ## per-phase wall time and overhead per run of a small local experiment
	@$(PY) -m worker.scripts.bench_runs

.PHONY: bench-cancel bench-key-reads
bench-cancel: setup  ## after a Cancel of a 20,000-run grid: queue length and time to the next experiment's run
	@$(PY) -m worker.scripts.bench_cancel

bench-key-reads: setup  ## a good host's key read behind 20 registrations of 50 closed ports
	@$(PY) -m backend.scripts.bench_key_reads

bench-slo: setup build-middleware  ## latency-SLO search vs a 30-point grid: runs, VM-time, answers
	@$(PY) -m worker.scripts.bench_slo $(BENCH_ARGS)

bench-monitor: setup build-middleware  ## the monitor's CPU per second of run; demand vs timer model on a local experiment
	@$(PY) -m worker.scripts.bench_monitor

bench-cloud: setup  ## gets/s and sets/s on a testbed shaped as the reports' Azure VMs vs their network bound
	@$(PY) -m worker.scripts.bench_cloud $(BENCH_ARGS)

bench-figures: deps  ## static figure rendering: cold browser start vs the warm renderer
	@$(PY) -m backend.figures.bench

bench-middleware: build-middleware  ## middleware vs direct vs twemproxy (BENCH_ARGS="--cells 128-1:1 --reps 2")
	@bash middleware-cpp/scripts/bench.sh $(BENCH_ARGS)

fuzz-middleware:  ## libFuzzer on the request and reply parsers (FUZZ_SECONDS, default 600)
	@bash middleware-cpp/scripts/fuzz.sh $${FUZZ_SECONDS:-600}

# make test's API fuzz draws the same examples every run (CI's verdict must not depend on the
# draw); this one draws others, a seed given or a random one printed, so that a failure repeats.
fuzz-api: setup  ## the API fuzz with another draw (FUZZ_SEED, printed; FUZZ_EXAMPLES per operation, default 25)
	@seed="$${FUZZ_SEED:-$$(( RANDOM * 32768 + RANDOM ))}"; examples="$${FUZZ_EXAMPLES:-25}"; \
	 [[ "$$seed" =~ ^[0-9]+$$ && "$$examples" =~ ^[1-9][0-9]*$$ ]] || { \
	   echo "make fuzz-api: FUZZ_SEED must be a whole number and FUZZ_EXAMPLES one of at least 1" \
	        "(got FUZZ_SEED=$$seed FUZZ_EXAMPLES=$$examples)" >&2; exit 2; }; \
	 echo "== API fuzz, seed $$seed, $$examples examples per operation" \
	      "(again: FUZZ_SEED=$$seed FUZZ_EXAMPLES=$$examples make fuzz-api)"; \
	 MCSCOPE_FUZZ_SEED=$$seed MCSCOPE_FUZZ_EXAMPLES=$$examples .venv/bin/pytest -q -p no:cacheprovider \
	   -p no:randomly backend/tests/api/test_fuzz.py

compose-check:  ## validate docker-compose.yml (docker compose, or Debian's docker-compose)
	@if docker compose version >/dev/null 2>&1; then docker compose config -q; \
	 else docker-compose config -q; fi && echo "docker-compose.yml is valid"
