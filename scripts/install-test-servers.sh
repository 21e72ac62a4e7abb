#!/usr/bin/env bash
# The database servers the store tests start on free ports in temporary folders (test/support/postgres.ts,
# test/support/ferretdb.ts): PostgreSQL 15 from Debian and FerretDB v1.24.2, a MongoDB wire-protocol
# server built from source with Go. Idempotent: when both are there it only checks and returns.
#
# FerretDB goes to a cache shared by every clone of the project on this machine (building it takes
# minutes on two cores, once): ${XDG_CACHE_HOME:-~/.cache}/meeting-bot-service/ferretdb-v1.24.2/ferretdb.
# test/support/ferretdb.ts looks there too (or at FERRETDB_BIN).
# Only the tests need them: what cannot be installed is reported and skipped, so `npm start` still works.
set -euo pipefail

pg_bin=/usr/lib/postgresql/15/bin
if [ ! -x "$pg_bin/initdb" ] || [ ! -x "$pg_bin/pg_ctl" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "not root: PostgreSQL 15 for the store tests is not installed; run 'sudo apt-get install -y postgresql-15' once" >&2
  else
    echo "installing PostgreSQL 15 for the store tests" >&2
    # The tests run their own throw-away servers: no cluster of the package's own on port 5432.
    mkdir -p /etc/postgresql-common
    [ -f /etc/postgresql-common/createcluster.conf ] || echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
  fi
fi

ferretdb_version=v1.24.2
ferretdb_dir="${XDG_CACHE_HOME:-$HOME/.cache}/meeting-bot-service/ferretdb-$ferretdb_version"
if [ ! -x "$ferretdb_dir/ferretdb" ]; then
  go=$(command -v go || true)
  [ -n "$go" ] || [ ! -x /usr/local/go/bin/go ] || go=/usr/local/go/bin/go
  if [ -z "$go" ]; then
    echo "Go is missing: FerretDB (the MongoDB wire-protocol server of the tests) is not built; install Go >= 1.24 and run this again" >&2
    exit 0
  fi
  mkdir -p "$ferretdb_dir"
  # Several clones may install at once: one builds, the others wait and find the binary.
  exec 9>"$ferretdb_dir/.lock"
  flock 9
  if [ ! -x "$ferretdb_dir/ferretdb" ]; then
    echo "building FerretDB $ferretdb_version with $("$go" version | cut -d' ' -f3) (a few minutes, once)" >&2
    GOBIN="$ferretdb_dir" GOFLAGS=-mod=mod CGO_ENABLED=0 "$go" install "github.com/FerretDB/FerretDB/cmd/ferretdb@$ferretdb_version"
  fi
  flock -u 9
fi
