#!/usr/bin/env bash
# Idempotent set-up: .venv with the CPU build of torch 2.13.0 (never the multi-GB CUDA build),
# the package and its test tools, the prebuilt labextension, and Debian's chromium for the
# browser tests (when running as root and it is missing). Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=.venv
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi
pip() { "$VENV/bin/python" -m pip "$@"; }
# torch first and pinned, so nothing later resolves "torch" to a CUDA wheel.
"$VENV/bin/python" -c "import torch" 2>/dev/null || pip install -q "torch==2.13.0"
stamp="$VENV/.paef-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # The labextension is built below with the venv's jlpm, not in pip's isolated build env.
  SKIP_JUPYTER_BUILDER=1 pip install -q -e ".[test,scalene]"
  touch "$stamp"
fi
if command -v node >/dev/null 2>&1; then
  ./scripts/build_labextension.sh  # rebuilds only when labextension/ changed
else
  echo "setup: node not found; the labextension is not built and browser tests will be skipped" >&2
fi
if [ "${1:-}" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "setup: could not install chromium; browser tests will be skipped" >&2
  else
    echo "setup: chromium missing and not root; browser tests will be skipped" >&2
  fi
fi
