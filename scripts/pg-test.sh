#!/usr/bin/env bash
# Runs the server test suite against a throwaway PostgreSQL cluster: init a temporary cluster,
# start it on 127.0.0.1, run `npx jest --selectProjects server` with DATABASE_URL, stop it,
# remove the folder, and exit with jest's code. Extra arguments go to jest.
set -uo pipefail

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PG_BIN" ]; then
  echo "pg-test: PostgreSQL is not installed (apt-get install -y postgresql postgresql-15-postgis-3)" >&2
  exit 1
fi

DIR=$(mktemp -d /tmp/pg-test.XXXXXX)
PORT=${PG_TEST_PORT:-$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}

# initdb refuses to run as root: run the cluster as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

cleanup() {
  as_pg "'$PG_BIN/pg_ctl' -D '$DIR/data' -m fast -w stop" >/dev/null 2>&1
  rm -rf "$DIR"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] && chown postgres "$DIR"
as_pg "'$PG_BIN/initdb' -D '$DIR/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >"$DIR/initdb.log" 2>&1 || {
  cat "$DIR/initdb.log" >&2
  exit 1
}
as_pg "'$PG_BIN/pg_ctl' -D '$DIR/data' -l '$DIR/server.log' -o \"-h 127.0.0.1 -p $PORT -k '$DIR'\" -w start" >/dev/null || {
  cat "$DIR/server.log" >&2
  exit 1
}

# Test paths first: --selectProjects takes every word after it as a project name.
DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres" npx jest "$@" --selectProjects server
status=$?
# CI (PG_TEST_BENCH=1) prints the saves bench on this cluster too: figures for information, never a failure.
if [ "${PG_TEST_BENCH:-}" = 1 ]; then
  BENCH_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres" npx tsx bench/saves.ts || echo "pg-test: the saves bench on PostgreSQL did not finish" >&2
fi
exit $status
