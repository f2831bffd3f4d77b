#!/usr/bin/env bash
# Builds labextension/ into paef_jupyter/labextension with the venv's jlpm, only when its sources
# changed (a content hash, so a fresh clone or a branch switch rebuilds and nothing else does),
# then links the build into the venv's share/jupyter/labextensions, so that Jupyter sees every
# rebuild of an editable install without a reinstall. Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
case $VENV in /*) ;; *) VENV="$PWD/$VENV" ;; esac
export PATH="$VENV/bin:$PATH"
out=paef_jupyter/labextension
stamp=labextension/node_modules/.paef-sources.sha256
sources=$(find labextension \( -name node_modules -o -name lib -o -name .yarn -o -name tsconfig.tsbuildinfo \) \
            -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/package.json" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sources" ]; then
  echo "build_labextension: building labextension/ (sources changed)" >&2
  log=$(mktemp)
  if ! (cd labextension && jlpm install --immutable && jlpm build:prod) >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "build_labextension: the build failed (TypeScript or bundling errors above)" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  echo "$sources" >"$stamp"
fi
link="$VENV/share/jupyter/labextensions/paef-jupyter"
if [ "$(readlink "$link" 2>/dev/null)" != "$PWD/$out" ]; then
  rm -rf "$link"
  mkdir -p "$(dirname "$link")"
  ln -s "$PWD/$out" "$link"
fi
