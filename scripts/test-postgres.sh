#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, on a loopback port, trust auth on 127.0.0.1
# only (initdb refuses to run as root: as root the cluster runs as the `postgres` user).
#   scripts/test-postgres.sh start [--durable]   prints INSIKA_TEST_DATABASE_URL=postgres://… (admin URL)
# Without --durable the cluster runs with fsync=off (tests: a crash of the machine is not
# what they test); the benchmarks start it --durable, as an operator would run it.
#   scripts/test-postgres.sh stop DIR   stops it and removes it
#   scripts/test-postgres.sh down DIR / up DIR   stops it at once (as a crash would) / starts it again on its port
set -euo pipefail

bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    echo "PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "$dir"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    bin=$(bin_dir)
    dir=$(mktemp -d /tmp/insika-pg-XXXXXX)
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    fsync="-c fsync=off"
    if [ "${2:-}" = "--durable" ]; then fsync=""; fi
    port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U insika --no-sync >/dev/null
    echo "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 $fsync" > "$dir/options"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
    echo "INSIKA_TEST_PG_DIR=$dir"
    echo "INSIKA_TEST_DATABASE_URL=postgres://insika@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="${2:?usage: test-postgres.sh stop DIR}"
    bin=$(bin_dir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
  down)
    dir="${2:?usage: test-postgres.sh down DIR}"
    as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  up)
    dir="${2:?usage: test-postgres.sh up DIR}"
    as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
    ;;
  *)
    echo "usage: $0 start [--durable] | stop DIR | down DIR | up DIR" >&2
    exit 2
    ;;
esac
