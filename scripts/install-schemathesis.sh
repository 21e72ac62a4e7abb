#!/usr/bin/env bash
# Schemathesis, the property-based API fuzzer of test/http/openapi-fuzz.spec.ts, from PyPI into a virtual
# environment of its own (never the system's Python): ${XDG_CACHE_HOME:-~/.cache}/meeting-bot-service/
# schemathesis-<version>/bin/schemathesis, shared by every clone on this machine. test/support/schemathesis.ts
# looks there (or at SCHEMATHESIS_BIN). Idempotent: when that version is there it returns at once.
# Only the tests need it: what cannot be installed is reported and skipped, so `npm start` still works.
set -euo pipefail

version=4.32.5
venv="${XDG_CACHE_HOME:-$HOME/.cache}/meeting-bot-service/schemathesis-$version"
# Written last: a folder without it is a broken install (interrupted), made again.
done_marker="$venv/.installed"
[ -f "$done_marker" ] && exit 0

python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing python3-venv for Schemathesis" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
    python=$(command -v python3)
  else
    echo "not root: Python 3 with venv is missing, so Schemathesis (the API fuzzing test) is not installed; run 'sudo apt-get install -y python3-venv' once" >&2
    exit 0
  fi
fi

mkdir -p "$(dirname "$venv")"
# Several clones may install at once: one installs, the others wait and find it.
exec 9>"$venv.lock"
flock 9
if [ ! -f "$done_marker" ]; then
  echo "installing Schemathesis $version from PyPI into $venv (once, about a minute)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
  touch "$done_marker"
fi
flock -u 9
