# Two commands do all set-up on a fresh machine:
#   make demo   profile the demo notebook headless and write out/demo_report.html
#   make test   run the whole test suite
.PHONY: setup demo test bench
VENV := .venv
PY := $(VENV)/bin/python

setup:
	./scripts/setup.sh

DEMO ?= demo_notebooks/niser_recommender.ipynb

demo: setup
	mkdir -p out
	$(VENV)/bin/paef profile $(DEMO) --report out/demo_report.html --json out/demo_report.json
	@echo "report: out/demo_report.html"

test:
	./scripts/setup.sh --browser
	./scripts/test.sh

bench: setup
	$(PY) benchmarks/run.py
