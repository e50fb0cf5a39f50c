#!/usr/bin/env bash
# Set up gamesim on a bare machine: a virtual environment in .venv with gamesim,
# its dependencies and the test tools. Safe to run again (it only tops up).
# Needs Python >= 3.11 (python3.11, or set PYTHON=/path/to/python).
#   bash scripts/setup.sh          # what `gamesim report` needs
#   bash scripts/setup.sh --test   # and what the whole test suite needs (Debian's chromium for the browser test)
set -euo pipefail
cd "$(dirname "$0")/.."
TEST=0
for arg in "$@"; do
  case "$arg" in
    --test) TEST=1 ;;
    *) echo "setup: unknown option $arg (allowed: --test)" >&2; exit 2 ;;
  esac
done

PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for cand in python3.11 python3.12 python3.13 python3; do
    if command -v "$cand" >/dev/null 2>&1; then PY="$cand"; break; fi
  done
fi
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "gamesim needs Python >= 3.11, found " + sys.version)'

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# uv (Astral's installer, from PyPI) installs the same versions as pip in seconds instead of
# a minute or more (docs/benchmarks.md, "The main job"); pip does it where uv cannot be had.
# --compile-bytecode writes the .pyc files as pip does: without them (and with
# PYTHONDONTWRITEBYTECODE set, as on some machines) every process would compile scipy,
# pandas and altair again, about 1.5 CPU-s per worker, notebook kernel and test process.
if .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv>=0.4" >/dev/null 2>&1 \
   && .venv/bin/python -m uv pip install --quiet --compile-bytecode --python .venv/bin/python -e ".[test]"; then
  :
else
  echo "setup: uv not available; installing with pip (slower)" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
fi

# PDF reports use WeasyPrint, which needs the pango libraries (present on the base
# machine; installed from Debian's packages if missing and we are allowed to).
if ! .venv/bin/python -c "import weasyprint" >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 >/dev/null
  fi
  .venv/bin/python -c "import weasyprint" || { echo "setup: WeasyPrint cannot load pango; install libpango-1.0-0 libpangoft2-1.0-0" >&2; exit 1; }
fi
# Reports quote the rulebooks in Japanese: make sure some font has Japanese glyphs.
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=ja 2>/dev/null)" ] \
   && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -qq fonts-ipaexfont-gothic >/dev/null 2>&1 \
   || { apt-get update -qq && apt-get install -y -qq fonts-ipaexfont-gothic >/dev/null; }) \
   || echo "setup: warning: no Japanese font; Japanese text in PDF reports will show as boxes" >&2
fi
# The browser test (tests/report/test_browser.py) opens every report in Debian's headless Chromium;
# without it that test skips and says why. Only with --test: reports do not need a browser.
if [ "$TEST" = 1 ] && { ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; } \
   && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1 \
   || { apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; }) \
   || echo "setup: warning: chromium not installed; the browser test of the HTML reports will skip" >&2
fi
# gamesim's own bytecode too (an editable install is not compiled by the installer)
.venv/bin/python -m compileall -q -j 0 gamesim >/dev/null
echo "setup: gamesim $(.venv/bin/python -c 'import gamesim; print(gamesim.__version__)') ready in .venv"
