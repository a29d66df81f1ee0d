#!/usr/bin/env bash
# Runs once, when the database volume is created: the app's own role, which owns the app's database
# (so its migrations can create tables) and nothing else: no superuser, no other databases, no roles.
# The server's superuser (POSTGRES_USER) stays for the operator only.
set -Eeuo pipefail
: "${APP_DB_USER:?APP_DB_USER is required}" "${APP_DB_PASSWORD_FILE:?APP_DB_PASSWORD_FILE is required}"
# The password goes through a psql variable read from the file: never on a command line.
psql -v ON_ERROR_STOP=1 -q --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v app="$APP_DB_USER" -v db="$POSTGRES_DB" -v password_file="$APP_DB_PASSWORD_FILE" <<'SQL'
\set password `cat "$APP_DB_PASSWORD_FILE"`
CREATE ROLE :"app" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;
ALTER DATABASE :"db" OWNER TO :"app";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
ALTER SCHEMA public OWNER TO :"app";
SQL
echo "created role $APP_DB_USER, owner of database $POSTGRES_DB"
