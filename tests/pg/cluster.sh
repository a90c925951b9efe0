#!/usr/bin/env bash
# A throw-away local PostgreSQL cluster for saves/tests/postgres.rs (issue 31,
# step P2; server/POSTGRES.md). Run as root (CI) or as any user who may run
# initdb; as root the cluster belongs to the system user `pgtest`.
#
#   eval "$(tests/pg/cluster.sh start)"   # prints `export XENOLOG_TEST_PG=...` (reuses a running one)
#   tests/pg/cluster.sh stop
#
# The cluster lives in a fresh temporary directory named in $PG_STATE
# (default /tmp/xenolog-pg.state), listens on $PG_PORT (default 55432) on
# localhost and on a socket in the same directory, and trusts local users
# (it is for tests only: nothing outside the machine can reach it).
# It runs with fsync=off (fast, not durable); PG_FSYNC=on starts one whose
# commits reach the disk, for durable figures (server/examples/load.rs).
set -euo pipefail
state=${PG_STATE:-/tmp/xenolog-pg.state}
port=${PG_PORT:-55432}
fsync=${PG_FSYNC:-off}
case "$fsync" in on | off) ;; *) echo "cluster.sh: PG_FSYNC is on or off, not '$fsync'" >&2; exit 2 ;; esac

bin=$(command -v pg_ctl 2>/dev/null || true)
if [ -z "$bin" ]; then
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && bin="$d/pg_ctl"; done
fi
if [ -z "$bin" ]; then
  echo "cluster.sh: pg_ctl not found (apt-get install postgresql)" >&2
  exit 1
fi
bindir=$(dirname "$bin")

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u pgtest -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    # A cluster already running from this state file is reused (several
    # helpers or test runs may share it); one left by a run that was killed
    # is stopped first (same port).
    if [ -f "$state" ]; then
      if as_owner "$bindir/pg_ctl" -D "$(cat "$state")/data" status >/dev/null 2>&1; then
        echo "export XENOLOG_TEST_PG='host=localhost port=$port user=pgtest dbname=postgres'"
        exit 0
      fi
      "$0" stop
    fi
    if [ "$(id -u)" = 0 ] && ! id pgtest >/dev/null 2>&1; then
      useradd -r -m pgtest
    fi
    dir=$(mktemp -d /tmp/xenolog-pg.XXXXXX)
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown pgtest "$dir"
    as_owner "$bindir/initdb" -D "$dir/data" -U pgtest -A trust --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=localhost -c fsync=$fsync" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "$dir" >"$state"
    echo "export XENOLOG_TEST_PG='host=localhost port=$port user=pgtest dbname=postgres'"
    ;;
  stop)
    [ -f "$state" ] || exit 0
    dir=$(cat "$state")
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir" "$state"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
