#!/usr/bin/env bash
# The whole suite in two parts, both always run; fails if either fails.
# 1. Everything but the `measured` tests, on two xdist workers (the machine's two cores: most
#    tests are analyses, one core each). Tests that share a session's work stay in one worker
#    (groups: tests/conftest.py).
# 2. The `measured` tests alone: they assert on profiled times, which a busy neighbour skews.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
# Bytecode caches (gitignored __pycache__/): without them every process the suite starts
# (workers, kernels, rank and corpus subprocesses) compiles the package again, and pytest
# rewrites every test module's asserts again in each of its three collections.
unset PYTHONDONTWRITEBYTECODE
"$PY" -m pytest -q -ra --durations=15 -n "${PAEF_TEST_WORKERS:-2}" -m "not measured"
parallel=$?
"$PY" -m pytest -q -ra --durations=10 -m measured
measured=$?
echo "test.sh: parallel part exit $parallel, measured part exit $measured"
[ "$parallel" -eq 0 ] && [ "$measured" -eq 0 ]
