#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (a real server, no mock).
#
#   scripts/postgres.sh start DIR   initdb in DIR, start on a free loopback
#                                   port (and a Unix socket in DIR), print
#                                   the URL on stdout
#   scripts/postgres.sh restart DIR stop it (fast: connections are cut, the
#                                   WAL is flushed) and start it again on
#                                   the same port, as an operator's restart
#   scripts/postgres.sh crash DIR   crash-restart it (`-m immediate`: no
#                                   checkpoint, what an OOM kill or a
#                                   failover looks like), recovering from
#                                   its WAL on the same port
#   scripts/postgres.sh cut DIR     cut every client connection
#                                   (`pg_terminate_backend`), as a network
#                                   fault or a proxy restart would
#   scripts/postgres.sh stop DIR    stop it and delete DIR
#
# Installs Debian's `postgresql` package when no initdb is found. The
# cluster trusts every local connection (`-A trust`): it listens on
# 127.0.0.1 only and lives as long as one test run; never use this for a
# real database. PostgreSQL refuses to run as root, so as root its binaries
# run as the `postgres` user the package creates.
set -euo pipefail

find_bin() {
  local initdb
  initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$initdb" ]; then dirname "$initdb"; fi
}

install_postgres() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  # Only the server binaries are needed; the package's own cluster and
  # service are not used (and not started in a container without systemd).
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }
}

# Runs a PostgreSQL binary as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A TCP port nothing listens on now (the kernel picks it).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|restart|crash|cut|stop DIR" >&2
  exit 2
fi

case "$cmd" in
  start)
    bin=$(find_bin)
    if [ -z "$bin" ]; then
      install_postgres >&2
      bin=$(find_bin)
    fi
    if [ -z "$bin" ]; then
      echo "postgres.sh: no /usr/lib/postgresql/*/bin/initdb after installing postgresql" >&2
      exit 1
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    as_pg "$bin/initdb" -D "$dir/db" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # A port can be taken between choosing and binding it: try a few.
    for _ in 1 2 3 4 5; do
      port=$(free_port)
      if as_pg "$bin/pg_ctl" -D "$dir/db" -l "$dir/log" -w -t 30 \
        -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null 2>&1; then
        echo "$port" >"$dir/port"
        echo "postgres://postgres@127.0.0.1:$port/postgres"
        exit 0
      fi
    done
    echo "postgres.sh: the cluster in $dir did not start; its log:" >&2
    cat "$dir/log" >&2 || true
    exit 1
    ;;
  restart)
    bin=$(find_bin)
    as_pg "$bin/pg_ctl" -D "$dir/db" -l "$dir/log" -m fast -w -t 60 restart >/dev/null 2>&1 \
      || { echo "postgres.sh: the cluster in $dir did not restart; its log:" >&2; tail -n 50 "$dir/log" >&2; exit 1; }
    ;;
  crash)
    bin=$(find_bin)
    as_pg "$bin/pg_ctl" -D "$dir/db" -l "$dir/log" -m immediate -w -t 60 restart >/dev/null 2>&1 \
      || { echo "postgres.sh: the cluster in $dir did not come back after a crash; its log:" >&2; tail -n 50 "$dir/log" >&2; exit 1; }
    ;;
  cut)
    bin=$(find_bin)
    as_pg "$bin/psql" -h "$dir" -p "$(cat "$dir/port")" -U postgres -d postgres -qAt -c \
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()" >/dev/null
    ;;
  stop)
    bin=$(find_bin)
    if [ -n "$bin" ] && [ -f "$dir/db/postmaster.pid" ]; then
      as_pg "$bin/pg_ctl" -D "$dir/db" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|restart|crash|cut|stop DIR" >&2
    exit 2
    ;;
esac
