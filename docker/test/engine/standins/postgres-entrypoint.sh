#!/usr/bin/env bash
# The part of the official postgres image's entrypoint that Weft relies on: POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB and their *_FILE variants; scripts in /docker-entrypoint-initdb.d
# run once, on an empty data folder; the server runs as `postgres`, never as root.
set -Eeuo pipefail

# VAR or VAR_FILE (never both), else a default.
file_env() {
  local var=$1 file_var="${1}_FILE" default=${2:-}
  if [ -n "${!var:-}" ] && [ -n "${!file_var:-}" ]; then
    echo "error: both $var and $file_var are set (but are exclusive)" >&2
    exit 1
  fi
  local value=$default
  if [ -n "${!var:-}" ]; then value=${!var}; elif [ -n "${!file_var:-}" ]; then value=$(<"${!file_var}"); fi
  export "$var=$value"
  unset "$file_var"
}

if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chmod 00700 "$PGDATA"
  find "$PGDATA" \! -user postgres -exec chown postgres:postgres '{}' +
  chmod 03775 /var/run/postgresql 2>/dev/null || :
  find /var/run/postgresql \! -user postgres -exec chown postgres:postgres '{}' + 2>/dev/null || :
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  file_env POSTGRES_PASSWORD
  file_env POSTGRES_USER postgres
  file_env POSTGRES_DB "$POSTGRES_USER"
  if [ -z "$POSTGRES_PASSWORD" ]; then
    echo 'error: the database is uninitialized and POSTGRES_PASSWORD is not set' >&2
    exit 1
  fi
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") -D "$PGDATA" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  # A private server (no TCP) for the set-up, so no client sees a half-initialised database.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start >/dev/null
  export PGUSER="$POSTGRES_USER" PGPASSWORD="$POSTGRES_PASSWORD" PGHOST=/var/run/postgresql
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -q -d postgres -v db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  export PGDATABASE="$POSTGRES_DB"
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 -q -f "$f" ;;
      *) ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  unset PGPASSWORD PGUSER PGDATABASE PGHOST
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
