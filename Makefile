# Two commands do all set-up on a fresh machine:
#   make demo   profile the demo notebook headless and write out/demo_report.html
#   make test   run the whole test suite
.PHONY: setup demo test bench
VENV := .venv
PY := $(VENV)/bin/python

setup:
	./scripts/setup.sh

demo: setup
	mkdir -p out
	$(VENV)/bin/paef scan demo_notebooks/ping_pong.ipynb || true

test:
	./scripts/setup.sh --browser
	$(PY) -m pytest -q -ra

bench: setup
	$(PY) benchmarks/run.py
